import { describe, expect, it } from 'vitest';
import { hashMessage, hashTypedData, keccak256, recoverAddress, serializeErc6492Signature, toHex, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { recoverSigner } from './recover-signer.ts';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe('recoverSigner', () => {
  it('answers the signing address for typed data and personal messages, as viem does', async () => {
    for (let i = 0; i < 8; i++) {
      const account = privateKeyToAccount(generatePrivateKey());
      const typed = { domain: { name: 'Namefi', version: '1' }, types: { Note: [{ name: 'text', type: 'string' }] }, primaryType: 'Note' as const, message: { text: `note ${i}` } };
      const typedSignature = await account.signTypedData(typed);
      expect(await recoverSigner(hashTypedData(typed), typedSignature)).toBe(account.address.toLowerCase());
      const messageSignature = await account.signMessage({ message: `hello ${i}` });
      expect(await recoverSigner(hashMessage(`hello ${i}`), messageSignature)).toBe(account.address.toLowerCase());
    }
  });

  it('takes v as 0/1 as well as 27/28, and a high-s twin the way viem does', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const hash = keccak256(toHex('payload'));
    const signature = await account.sign({ hash });
    const v = parseInt(signature.slice(130), 16);
    const zeroOne = `${signature.slice(0, 130)}${(v - 27).toString(16).padStart(2, '0')}` as Hex;
    expect(await recoverSigner(hash, zeroOne)).toBe(account.address.toLowerCase());

    const s = BigInt(`0x${signature.slice(66, 130)}`);
    const flipped = `${signature.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
    expect(await recoverSigner(hash, flipped)).toBe((await recoverAddress({ hash, signature: flipped })).toLowerCase());
  });

  it('answers another address for another hash, so a changed request never passes as the signer', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signature = await account.sign({ hash: keccak256(toHex('a')) });
    expect(await recoverSigner(keccak256(toHex('b')), signature)).not.toBe(account.address.toLowerCase());
  });

  it('leaves wrapped (ERC-6492) signatures to viem, with the same answer', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const hash = keccak256(toHex('wrapped'));
    const inner = await account.sign({ hash });
    const wrapped = serializeErc6492Signature({ address: '0x0000000000000000000000000000000000000001', data: '0x1234', signature: inner });
    const viaViem = await recoverAddress({ hash, signature: wrapped }).then((a) => a.toLowerCase(), () => 'throws');
    const ours = await recoverSigner(hash, wrapped).then((a) => a, () => 'throws');
    expect(ours).toBe(viaViem);
  });
});
