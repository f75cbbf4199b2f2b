import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { operations } from '#core/operations/index.ts';
import { randomNonce, nowSeconds } from '#core/eip712/envelope.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import type { DomainError } from '../domain-errors.ts';
import { httpErrorOf } from '../http/errors.ts';
import { authenticate } from './authenticate.ts';
import { recoverAddress } from 'viem';

const [OWNER_KEY, OTHER_KEY] = TEST_KEYS;
const OWNER = addressOf(OWNER_KEY);
const ZONE = 'auth-tests.com';

let service: TestService;
let client: TestClient;
const record = (n: number) => ({ zoneName: ZONE, type: 'TXT', name: `t${n}`, rdata: `"v${n}"`, ttl: 300 });
let counter = 0;
const next = () => record(++counter);

beforeAll(async () => {
  service = await startTestService({ BODY_LIMIT_BYTES: '2048' });
  client = testClient(service);
  await service.services.ownership.mint({ name: ZONE, to: OWNER, chainId: 31337, years: 1, now: new Date() });
});
afterAll(() => service.destroy());

describe('EIP-712 envelopes on a write', () => {
  it('accepts a fresh signature of the owner and answers the stored record', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', next());
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ zoneName: ZONE, type: 'TXT', name: `t${counter}` });
  });

  it('refuses a request with no credential at all', async () => {
    const reply = await client.call('createDnsRecord', { body: next() });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ code: 'UNAUTHORIZED', status: 401, defined: true });
    expect(reply.body.message).toMatch(/signed request \(EIP-712\) or an API key/);
  });

  it('refuses a replayed nonce', async () => {
    const nonce = randomNonce();
    expect((await client.signed(OWNER_KEY, 'createDnsRecord', next(), { nonce })).status).toBe(200);
    const replay = await client.signed(OWNER_KEY, 'createDnsRecord', next(), { nonce });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/nonce was already used/);
  });

  it('keeps nonces per signer: another wallet may use the same nonce', async () => {
    const nonce = randomNonce();
    expect((await client.signed(OWNER_KEY, 'createDnsRecord', next(), { nonce })).status).toBe(200);
    // The other wallet passes authentication and stops at ownership.
    expect((await client.signed(OTHER_KEY, 'createDnsRecord', next(), { nonce })).status).toBe(403);
  });

  it('refuses a signature older than five minutes', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', next(), { timestamp: nowSeconds() - 301 });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/more than 5 minutes ago/);
  });

  it('accepts a signature just inside the window', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', next(), { timestamp: nowSeconds() - 290 });
    expect(reply.status).toBe(200);
  });

  it('refuses a timestamp in milliseconds', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', next(), { timestamp: Date.now() });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/milliseconds/);
  });

  it('refuses a timestamp more than 30 s ahead', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', next(), { timestamp: nowSeconds() + 120 });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/in the future/);
  });

  it('refuses a primary type the operation does not accept', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', { id: 'r1', zoneName: next().zoneName }, { primaryType: 'RecordSelectEnvelope' });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/does not accept the primary type RecordSelectEnvelope/);
  });

  it('refuses a payloadType that does not match the primary type', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', next(), { tamper: (e) => ({ ...e, payloadType: 'RecordSelect' }) });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/payloadType/);
  });

  it('refuses a body changed after signing', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', next(), {
      tamper: (e) => ({ ...e, payload: { ...e.payload, rdata: '"tampered"' } }),
    });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/signer does not match x-namefi-signer/);
  });

  it('refuses a signature by another key than x-namefi-signer', async () => {
    const reply = await client.signed(OTHER_KEY, 'createDnsRecord', next(), { signer: OWNER });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/signer does not match x-namefi-signer.*no chain configured for contract accounts/);
  });

  it('refuses a malformed signature and missing headers with a message naming the header', async () => {
    const bad = await client.signed(OWNER_KEY, 'createDnsRecord', next(), { headers: { [client.headers.signature]: '0x1234' } });
    expect(bad.status).toBe(401);
    expect(bad.body.message).toMatch(/not a valid signature/);
    const noType = await client.call('createDnsRecord', {
      body: { payloadType: 'CreateDnsRecord', payload: next(), timestamp: nowSeconds(), nonce: randomNonce() },
      headers: { [client.headers.signer]: OWNER, [client.headers.signature]: '0x12' },
    });
    expect(noType.status).toBe(401);
    expect(noType.body.message).toMatch(/x-namefi-eip712-type/);
  });

  it('refuses a signature header with a plain (non-envelope) body', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', next(), { tamper: (e) => e.payload });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/envelope/);
  });

  it('cannot verify a delegated account without a chain', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', next(), {
      headers: { [client.headers.erc1271Account]: '0x000000000000000000000000000000000000dEaD' },
    });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/delegated account .* could not be verified: no chain configured for contract accounts/);
  });

  it('acts as a delegated contract account when a chain-backed verifier accepts the signature', async () => {
    // At the chain's edge: a one-owner smart account (as a Safe would answer ERC-1271) owned by OWNER.
    const ACCOUNT = '0x000000000000000000000000000000000000c0de';
    const accountZone = 'contract-account.com';
    await service.services.ownership.mint({ name: accountZone, to: ACCOUNT, chainId: 31337, years: 1, now: new Date() });
    service.services.contractSignatures = {
      isValidSignature: async ({ account, hash, signature }) => account.toLowerCase() === ACCOUNT && (await recoverAddress({ hash, signature })) === OWNER,
    };
    try {
      const payload = { zoneName: accountZone, type: 'TXT', name: 'safe', rdata: '"ok"', ttl: 60 };
      const accepted = await client.signed(OWNER_KEY, 'createDnsRecord', payload, { headers: { [client.headers.eip7702Account]: ACCOUNT } });
      expect(accepted.status).toBe(200);
      // The wallet is the account, not the signer: the signer's own domain is not the account's.
      const notTheirs = await client.signed(OWNER_KEY, 'createDnsRecord', { ...payload, zoneName: ZONE }, { headers: { [client.headers.eip7702Account]: ACCOUNT } });
      expect(notTheirs.status).toBe(403);
      const refused = await client.signed(OTHER_KEY, 'createDnsRecord', payload, { headers: { [client.headers.erc1271Account]: ACCOUNT } });
      expect(refused.status).toBe(401);
      expect(refused.body.message).toMatch(/did not accept the signature/);
    } finally {
      service.services.contractSignatures = null;
    }
  });

  it('verifies with a chainId in the domain when x-namefi-chain-id says so', async () => {
    const account = privateKeyToAccount(OWNER_KEY);
    const payload = next();
    const { envelopeTypedData, buildEnvelope } = await import('#core/eip712/envelope.ts');
    const { TYPE_REGISTRY } = await import('#core/eip712/registry.ts');
    const envelope = buildEnvelope('CreateDnsRecordEnvelope', payload);
    const signature = await account.signTypedData(envelopeTypedData({ ...(await client.signingDomain()), chainId: 31337 }, TYPE_REGISTRY, 'CreateDnsRecordEnvelope', envelope) as never);
    const headers = { [client.headers.signer]: OWNER, [client.headers.signature]: signature, [client.headers.eip712Type]: 'CreateDnsRecordEnvelope' };
    const withChain = await client.call('createDnsRecord', { body: envelope, headers: { ...headers, [client.headers.chainId]: '31337' } });
    expect(withChain.status).toBe(200);
    const withoutChain = await client.call('createDnsRecord', { body: { ...envelope, nonce: randomNonce() }, headers });
    expect(withoutChain.status).toBe(401);
  });

  it('does not let a SIWE session alone authorise a write', async () => {
    const token = await client.signIn(OWNER_KEY);
    const reply = await client.call('createDnsRecord', { body: next(), headers: client.withToken(token) });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/SIWE session does not authorise this change/);
  });
});

describe('SIWE tokens on siwe operations', () => {
  it('needs a credential, accepts a session, refuses an unknown token', async () => {
    expect((await client.call('listApiKeys')).status).toBe(401);
    const token = await client.signIn(OWNER_KEY);
    expect((await client.call('listApiKeys', { headers: client.withToken(token) })).status).toBe(200);
    const unknown = await client.call('listApiKeys', { headers: client.withToken('not-a-token') });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toMatch(/SIWE session token is not known/);
  });

  it('refuses an EIP-712 signature on an operation that has no type', async () => {
    const reply = await client.signed(OWNER_KEY, 'createApiKey', { zoneName: 'a.com' }, { primaryType: 'ZoneSelectEnvelope' });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/takes no EIP-712 signature/);
  });
});

describe('optional and public operations', () => {
  const h = () => service.services.headers;
  it('optional: anonymous is fine, a valid credential gives the wallet, an invalid one is refused', async () => {
    const op = operations.checkAvailability;
    expect(await authenticate(service.services, op, { headers: new Headers(), body: undefined })).toEqual({ principal: null, payload: undefined });
    const token = await client.signIn(OWNER_KEY);
    const signedIn = await authenticate(service.services, op, { headers: new Headers({ [h().siweToken]: token }), body: undefined });
    expect(signedIn.principal).toEqual({ wallet: OWNER.toLowerCase(), via: 'siwe' });
    // As a client sees it: the refusal mapped to its HTTP status.
    const refused = authenticate(service.services, op, { headers: new Headers({ [h().apiKey]: 'nfk_short' }), body: undefined }).catch((error: DomainError) => Promise.reject(httpErrorOf(error)));
    await expect(refused).rejects.toMatchObject({
      status: 401,
      message: expect.stringMatching(/API key is malformed/),
    });
  });

  it('none: credentials are not looked at and an envelope body is unwrapped', async () => {
    const body = { payloadType: 'ZoneSelect', payload: { zoneName: ZONE }, timestamp: nowSeconds(), nonce: 'n' };
    const result = await authenticate(service.services, operations.verifySiwe, { headers: new Headers({ [h().apiKey]: 'garbage' }), body });
    expect(result).toEqual({ principal: null, payload: { zoneName: ZONE } });
  });
});

describe('request bodies', () => {
  it('answers 400 to malformed JSON before authentication', async () => {
    const reply = await client.call('createDnsRecord', { rawBody: '{"zoneName": ' });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/Malformed JSON/);
  });

  it('answers 413 to a body over the limit', async () => {
    const reply = await client.call('createDnsRecord', { body: { ...next(), rdata: `"${'x'.repeat(4000)}"` } });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('checks authentication before the input schema', async () => {
    const reply = await client.call('createDnsRecord', { body: { zoneName: 'NOT A ZONE' } });
    expect(reply.status).toBe(401);
    const signed = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: 'NOT A ZONE', name: '@', type: 'A', rdata: '1.2.3.4', ttl: 60 });
    expect(signed.status).toBe(400);
    expect(signed.body.data.fieldErrors.zoneName).toBeDefined();
  });
});
