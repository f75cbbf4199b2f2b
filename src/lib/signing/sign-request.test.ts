import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { verifyTypedData } from 'viem';
import { ACCEPTED_PRIMARY_TYPES, PRODUCTION_SIGNING_DOMAIN, TYPE_REGISTRY, typesForMethod } from '#core/eip712/registry.ts';
import { projectStruct } from '#core/eip712/envelope.ts';
import type { TypesForMethod } from '#core/wire/eip712.ts';
import { signRequest } from './sign-request.ts';
import { SignatureRejectedError, isUserRejection } from './errors.ts';

const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const published = (method: string) => typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, method) as TypesForMethod;
const sign = (typed: Parameters<typeof account.signTypedData>[0]) => account.signTypedData(typed);

async function signedBy(method: string, payload: Record<string, unknown>, domain: { name: string; version: string; chainId?: number } = PRODUCTION_SIGNING_DOMAIN) {
  return signRequest({
    prefix: 'namefi',
    signer: account.address,
    domain,
    typesForMethod: published(method),
    payload,
    sign: (typed) => sign(typed as never),
    timestamp: 1_767_225_600,
    nonce: '0x' + 'ab'.repeat(32),
  });
}

describe('signRequest', () => {
  it('signs the projected payload; the service recomputes the same message and recovers the signer', async () => {
    const payload = { zoneName: 'example.com', type: 'A', name: 'www', rdata: '192.0.2.1', ttl: 300, comment: 'web', tags: ['prod'] };
    const signed = await signedBy('createDnsRecord', payload);
    expect(signed.body).toEqual({ payloadType: 'CreateTypedDnsRecord', payload, timestamp: 1_767_225_600, nonce: '0x' + 'ab'.repeat(32) });
    expect(signed.headers).toEqual({
      'x-namefi-signer': account.address,
      'x-namefi-signature': expect.stringMatching(/^0x[0-9a-f]{130}$/),
      'x-namefi-eip712-type': 'CreateTypedDnsRecordEnvelope',
    });
    // What the service does: project the body's payload onto the struct named by the header and verify.
    const valid = await verifyTypedData({
      address: account.address,
      domain: PRODUCTION_SIGNING_DOMAIN,
      types: TYPE_REGISTRY,
      primaryType: 'CreateTypedDnsRecordEnvelope',
      message: {
        payloadType: 'CreateTypedDnsRecord',
        payload: projectStruct(TYPE_REGISTRY, 'CreateTypedDnsRecord', signed.body.payload),
        timestamp: BigInt(signed.body.timestamp),
        nonce: signed.body.nonce,
      },
      signature: signed.headers['x-namefi-signature'] as `0x${string}`,
    });
    expect(valid).toBe(true);
  });

  it('picks the registration type that fits the payload', async () => {
    const own = await signedBy('registerDomain', { normalizedDomainName: 'example.com', durationInYears: 1 });
    expect(own.headers['x-namefi-eip712-type']).toBe('InstantRegisterDomainDefaultWalletEnvelope');
    const other = await signedBy('registerDomain', {
      normalizedDomainName: 'example.com',
      durationInYears: 1,
      nftReceivingWallet: { walletAddress: account.address, chainId: 8453 },
    });
    expect(other.headers['x-namefi-eip712-type']).toBe('InstantRegisterDomainEnvelope');
    expect(other.body.payloadType).toBe('InstantRegisterDomain');
  });

  it('makes a fresh 32-byte nonce and a Unix-seconds timestamp by default', async () => {
    const before = Math.floor(Date.now() / 1000);
    const signed = await signRequest({ prefix: 'namefi', signer: account.address, domain: PRODUCTION_SIGNING_DOMAIN, typesForMethod: published('deleteDnsRecord'), payload: { id: 'r1', zoneName: 'example.com' }, sign: (t) => sign(t as never) });
    expect(signed.body.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(signed.body.timestamp).toBeGreaterThanOrEqual(before);
    expect(signed.body.timestamp).toBeLessThanOrEqual(before + 2);
  });

  it('names the chain it signed with when the service gave the domain one', async () => {
    const signed = await signedBy('deleteDnsRecord', { id: 'r1', zoneName: 'example.com' }, { ...PRODUCTION_SIGNING_DOMAIN, chainId: 8453 });
    expect(signed.headers['x-namefi-chain-id']).toBe('8453');
  });

  it('turns a declined request (EIP-1193 4001, however wrapped) into SignatureRejectedError', async () => {
    const declined = Object.assign(new Error('User rejected the request.'), { code: 4001 });
    const wrapped = Object.assign(new Error('wrapper'), { cause: declined });
    expect(isUserRejection(wrapped)).toBe(true);
    await expect(
      signRequest({ prefix: 'namefi', signer: account.address, domain: PRODUCTION_SIGNING_DOMAIN, typesForMethod: published('deleteDnsRecord'), payload: { id: 'r1', zoneName: 'example.com' }, sign: async () => { throw wrapped; } }),
    ).rejects.toBeInstanceOf(SignatureRejectedError);
  });

  it('keeps other signing failures as they are', async () => {
    const broken = new Error('Ledger disconnected');
    await expect(
      signRequest({ prefix: 'namefi', signer: account.address, domain: PRODUCTION_SIGNING_DOMAIN, typesForMethod: published('deleteDnsRecord'), payload: { id: 'r1', zoneName: 'example.com' }, sign: async () => { throw broken; } }),
    ).rejects.toBe(broken);
  });

  it('refuses an operation the service publishes no type for', async () => {
    await expect(signedBy('getUserDomains', {})).rejects.toThrow(/no EIP-712 form/);
  });
});
