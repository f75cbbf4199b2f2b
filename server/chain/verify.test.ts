import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTypedData, type Address, type Hex, type LocalAccount, type TypedDataDefinition } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { buildEnvelope, envelopeTypedData } from '#core/eip712/envelope.ts';
import { TYPE_REGISTRY } from '#core/eip712/registry.ts';
import { loadConfig } from '../config.ts';
import { signingDomain } from '../auth/signing-domain.ts';

import { delegateToSmartAccount, deploySmartAccount, erc6492Signature, setAccountSigner, smartAccountAddress } from '../../test/chain/accounts.ts';
import { chainClients } from './client.ts';
import { signatureChecks, startTestChain, type SignatureChecks, type TestChain } from '../../test/chain/testing.ts';

let chain: TestChain;
let verify: SignatureChecks;
beforeAll(async () => {
  chain = await startTestChain();
  verify = signatureChecks(chain.clients.public);
});
afterAll(() => chain?.close());

const newAccount = () => privateKeyToAccount(generatePrivateKey());
const funded = async () => {
  const account = newAccount();
  await chain.fund(account.address);
  return account;
};
/** A real envelope of the service: a DNS record creation, as the dashboard signs it. */
const recordTypedData = (rdata = '192.0.2.1') =>
  envelopeTypedData(
    // The domain a local service signs under by default: these tests ask the contracts, not a service.
    signingDomain(loadConfig({})),
    TYPE_REGISTRY,
    'CreateDnsRecordEnvelope',
    buildEnvelope('CreateDnsRecordEnvelope', { zoneName: 'example.com', name: '@', type: 'A', rdata, ttl: 3600 }),
  ) as unknown as TypedDataDefinition;
const signTyped = (signer: LocalAccount, typedData: TypedDataDefinition) => signer.signTypedData(typedData as never);
const siweMessage = (address: Address) =>
  createSiweMessage({ address, chainId: 31337, domain: 'localhost:5173', uri: 'http://127.0.0.1:8787', nonce: 'abcdef12345678', version: '1', statement: 'Sign in to Namefi API' });

describe('EOA signatures', () => {
  it('accept the signer and nobody else', async () => {
    const alice = newAccount();
    const typedData = recordTypedData();
    const signature = await signTyped(alice, typedData);
    expect(await verify.verifyTypedDataSignature({ address: alice.address, typedData, signature })).toBe(true);
    expect(await verify.verifyTypedDataSignature({ address: newAccount().address, typedData, signature })).toBe(false);
    expect(await verify.verifyTypedDataSignature({ address: alice.address, typedData: recordTypedData('192.0.2.2'), signature })).toBe(false);

    const message = siweMessage(alice.address);
    const siweSignature = await alice.signMessage({ message });
    expect(await verify.verifySiweSignature({ address: alice.address, message, signature: siweSignature })).toBe(true);
    expect(await verify.verifySiweSignature({ address: alice.address, message: `${message}\n`, signature: siweSignature })).toBe(false);
  });
});

describe('ERC-1271 accounts (deployed)', () => {
  it('accept the owner’s signature, and an extra signer only while the owner approves it', async () => {
    const owner = await funded();
    const helper = newAccount();
    const account = await deploySmartAccount(chain.clients, chain.deployment, owner.address);
    const typedData = recordTypedData();
    expect(await verify.verifyTypedDataSignature({ address: account, typedData, signature: await signTyped(owner, typedData) })).toBe(true);

    const helperSignature = await signTyped(helper, typedData);
    expect(await verify.verifyTypedDataSignature({ address: account, typedData, signature: helperSignature })).toBe(false);
    await setAccountSigner(chain.clients, { owner, account, signer: helper.address, approved: true });
    expect(await verify.verifyTypedDataSignature({ address: account, typedData, signature: helperSignature })).toBe(true);
    await setAccountSigner(chain.clients, { owner, account, signer: helper.address, approved: false });
    expect(await verify.verifyTypedDataSignature({ address: account, typedData, signature: helperSignature })).toBe(false);
  });

  it('verify a SIWE sign-in by the account, and answer the service’s ContractSignatureVerifier question', async () => {
    const owner = newAccount();
    const account = await deploySmartAccount(chain.clients, chain.deployment, owner.address);
    const message = siweMessage(account);
    const signature = await owner.signMessage({ message });
    expect(await verify.verifySiweSignature({ address: account, message, signature })).toBe(true);
    expect(await verify.verifySiweSignature({ address: account, message, signature: await newAccount().signMessage({ message }) })).toBe(false);

    const typedData = recordTypedData();
    const hash = hashTypedData(typedData);
    expect(await verify.isValidSignature({ account, hash, signature: await signTyped(owner, typedData) })).toBe(true);
    expect(await verify.isValidSignature({ account, hash, signature: await signTyped(newAccount(), typedData) })).toBe(false);
  });
});

describe('ERC-6492 accounts (not deployed yet)', () => {
  it('verify through the factory without deploying the account', async () => {
    const owner = newAccount();
    const salt: Hex = `0x${'07'.repeat(32)}`;
    const account = await smartAccountAddress(chain.clients, chain.deployment, owner.address, salt);
    expect(await chain.clients.public.getCode({ address: account })).toBeUndefined();
    const typedData = recordTypedData();
    const wrapped = erc6492Signature(chain.deployment, owner.address, await signTyped(owner, typedData), salt);
    expect(await verify.verifyTypedDataSignature({ address: account, typedData, signature: wrapped })).toBe(true);

    const message = siweMessage(account);
    const siwe = erc6492Signature(chain.deployment, owner.address, await owner.signMessage({ message }), salt);
    expect(await verify.verifySiweSignature({ address: account, message, signature: siwe })).toBe(true);

    const forged = erc6492Signature(chain.deployment, owner.address, await signTyped(newAccount(), typedData), salt);
    expect(await verify.verifyTypedDataSignature({ address: account, typedData, signature: forged })).toBe(false);
    // A wrapper that deploys someone else's account does not speak for this address.
    const otherOwners = erc6492Signature(chain.deployment, newAccount().address, await signTyped(owner, typedData), salt);
    expect(await verify.verifyTypedDataSignature({ address: account, typedData, signature: otherOwners })).toBe(false);
    expect(await chain.clients.public.getCode({ address: account })).toBeUndefined();
  });
});

describe('EIP-7702 delegated EOAs', () => {
  it('answer ERC-1271 through the SmartAccount code: the EOA itself and the signers it approves', async () => {
    const eoa = await funded();
    const helper = newAccount();
    await delegateToSmartAccount(chain.clients, chain.deployment, eoa);
    const code = await chain.clients.public.getCode({ address: eoa.address });
    expect(code?.toLowerCase()).toBe(`0xef0100${chain.deployment.accountImplementation.slice(2).toLowerCase()}`);

    const typedData = recordTypedData();
    expect(await verify.verifyTypedDataSignature({ address: eoa.address, typedData, signature: await signTyped(eoa, typedData) })).toBe(true);

    const helperSignature = await signTyped(helper, typedData);
    const delegated = { account: eoa.address, signer: helper.address, typedData, signature: helperSignature };
    expect(await verify.verifyDelegatedAccount(delegated)).toBe(false);
    await setAccountSigner(chain.clients, { owner: eoa, account: eoa.address, signer: helper.address, approved: true });
    expect(await verify.verifyDelegatedAccount(delegated)).toBe(true);
    expect(await verify.verifyTypedDataSignature({ address: eoa.address, typedData, signature: helperSignature })).toBe(true);
  });
});

describe('delegated-account headers (verifyDelegatedAccount)', () => {
  it('accepts the owner or an approved signer of the account, and refuses anyone else', async () => {
    const owner = await funded();
    const approved = newAccount();
    const stranger = newAccount();
    const account = await deploySmartAccount(chain.clients, chain.deployment, owner.address, `0x${'11'.repeat(32)}`);
    await setAccountSigner(chain.clients, { owner, account, signer: approved.address, approved: true });
    const typedData = recordTypedData();
    const ask = async (signer: LocalAccount) =>
      verify.verifyDelegatedAccount({ account, signer: signer.address, typedData, signature: await signTyped(signer, typedData) });
    expect(await ask(owner)).toBe(true);
    expect(await ask(approved)).toBe(true);
    expect(await ask(stranger)).toBe(false);

    const message = 'hello';
    expect(await verify.verifyDelegatedAccount({ account, signer: approved.address, message, signature: await approved.signMessage({ message }) })).toBe(true);
    // The signer header must name who signed.
    expect(await verify.verifyDelegatedAccount({ account, signer: approved.address, typedData, signature: await signTyped(owner, typedData) })).toBe(false);
    // An account with no code cannot vouch for anyone.
    expect(await verify.verifyDelegatedAccount({ account: newAccount().address, signer: owner.address, typedData, signature: await signTyped(owner, typedData) })).toBe(
      false,
    );
  });
});

describe('malformed input', () => {
  it('answers false, never throws', async () => {
    const owner = newAccount();
    const account = await deploySmartAccount(chain.clients, chain.deployment, owner.address, `0x${'22'.repeat(32)}`);
    const typedData = recordTypedData();
    const good = await signTyped(owner, typedData);
    const badSignatures = ['0x', '0x1234', 'not hex', `${good}00`, `0x${'00'.repeat(65)}`, `0x${'ff'.repeat(65)}`];
    for (const signature of badSignatures) {
      for (const address of [owner.address, account]) {
        expect(await verify.verifyTypedDataSignature({ address, typedData, signature }), `${address} ${signature}`).toBe(false);
        expect(await verify.verifySiweSignature({ address, message: 'x', signature }), `${address} ${signature}`).toBe(false);
      }
      expect(await verify.verifyDelegatedAccount({ account, signer: owner.address, typedData, signature })).toBe(false);
      expect(await verify.isValidSignature({ account, hash: hashTypedData(typedData), signature: signature as Hex })).toBe(false);
    }
    expect(await verify.verifyTypedDataSignature({ address: 'not-an-address', typedData, signature: good })).toBe(false);
    expect(await verify.verifyTypedDataSignature({ address: owner.address, typedData: { ...typedData, primaryType: 'Missing' } as never, signature: good })).toBe(false);
    expect(await verify.verifyDelegatedAccount({ account, signer: 'nobody', typedData, signature: good })).toBe(false);
    expect(await verify.verifyDelegatedAccount({ account, signer: owner.address, hash: '0x1234', signature: good })).toBe(false);
    expect(await verify.verifySiweSignature({ address: owner.address, message: 42 as never, signature: good })).toBe(false);
  });

  it('answers false when the chain is unreachable', async () => {
    const offline = signatureChecks(chainClients({ rpcUrl: 'http://127.0.0.1:9' }).public);
    const owner = newAccount();
    const typedData = recordTypedData();
    expect(await offline.verifyDelegatedAccount({ account: owner.address, signer: owner.address, typedData, signature: await signTyped(owner, typedData) })).toBe(false);
  });
});
