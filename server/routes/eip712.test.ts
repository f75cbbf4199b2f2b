import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPTED_PRIMARY_TYPES, PRODUCTION_SIGNING_DOMAIN, TYPE_REGISTRY } from '#core/eip712/registry.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';

let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

it('publishes its own chain-agnostic signing domain, Namefi Local by default, ignoring chain', async () => {
  expect((await client.call('getEip712Domain')).body).toEqual({ name: 'Namefi Local', version: '1' });
  expect((await client.call('getEip712Domain', { query: { chain: '8453' } })).body).toEqual({ name: 'Namefi Local', version: '1' });
});

describe('a signature verifies only under the domain it was made for', () => {
  const OWNER = addressOf(TEST_KEYS[0]);
  const payload = (zoneName: string) => ({ zoneName, name: 'www', type: 'TXT', rdata: '"x"', ttl: 60 });

  it('refuses an envelope signed for production (Namefi), and takes the same one signed for this service', async () => {
    await service.services.ownership.mint({ name: 'domains.com', to: OWNER, chainId: 31337, years: 1, now: new Date() });
    const nonce = `0x${'cd'.repeat(32)}`;
    const production = await client.signed(TEST_KEYS[0], 'createDnsRecord', payload('domains.com'), { domain: PRODUCTION_SIGNING_DOMAIN, nonce });
    expect(production.status).toBe(401);
    expect(production.body.message).toMatch(/does not match/);
    const local = await client.signed(TEST_KEYS[0], 'createDnsRecord', payload('domains.com'), { nonce });
    expect(local.status, JSON.stringify(local.body)).toBe(200);
  });

  it('signs under EIP712_DOMAIN_NAME: another copy refuses what was signed for this one', async () => {
    const other = await startTestService({ EIP712_DOMAIN_NAME: 'Namefi Elsewhere' });
    try {
      const otherClient = testClient(other);
      expect((await otherClient.call('getEip712Domain')).body).toEqual({ name: 'Namefi Elsewhere', version: '1' });
      await other.services.ownership.mint({ name: 'elsewhere.com', to: OWNER, chainId: 31337, years: 1, now: new Date() });
      const mine = await otherClient.signed(TEST_KEYS[0], 'createDnsRecord', payload('elsewhere.com'));
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      const replayed = await otherClient.signed(TEST_KEYS[0], 'createDnsRecord', { ...payload('elsewhere.com'), name: 'again' }, { domain: await client.signingDomain() });
      expect(replayed.status).toBe(401);
    } finally {
      await other.destroy();
    }
  });
});

it('publishes the registry it verifies with', async () => {
  const reply = await client.call('getAllEip712Types');
  expect(reply.status).toBe(200);
  expect(reply.body).toEqual(TYPE_REGISTRY);
  expect(reply.body.ZoneSelectEnvelope).toBeDefined();
  expect(reply.body.CreateDnsRecord).toEqual([
    { name: 'name', type: 'string' },
    { name: 'rdata', type: 'string' },
    { name: 'ttl', type: 'uint256' },
    { name: 'zoneName', type: 'string' },
  ]);
});

it('answers the accepted types of one operation with every struct they reach', async () => {
  const reply = await client.call('getEip712TypesForMethod', { query: { method: 'registerDomain' } });
  expect(reply.body.found).toBe(true);
  expect(reply.body.acceptedPrimaryTypes).toEqual(['InstantRegisterDomainDefaultWalletEnvelope', 'InstantRegisterDomainEnvelope']);
  expect(Object.keys(reply.body.types).sort()).toEqual(
    ['InstantRegisterDomainEnvelope', 'InstantRegisterDomain', 'NftReceivingWallet', 'InstantRegisterDomainDefaultWalletEnvelope', 'InstantRegisterDomainDefaultWallet'].sort(),
  );
  expect(reply.body.unsignedAccepted).toEqual({});
});

it('publishes the fields it takes unsigned under each accepted type, so that no client copies the rule', async () => {
  const reply = await client.call('getEip712TypesForMethod', { query: { method: 'createDnsRecord' } });
  expect(reply.body.acceptedPrimaryTypes).toEqual(['CreateTypedDnsRecordEnvelope', 'CreateDnsRecordEnvelope']);
  expect(reply.body.unsignedAccepted).toEqual({ CreateDnsRecordEnvelope: ['type'] });
});

it('says found: false for a method without a type, listing the ones that have one', async () => {
  const reply = await client.call('getEip712TypesForMethod', { query: { method: 'getBalance' } });
  expect(reply.body).toEqual({ found: false, acceptedPrimaryTypes: [], types: {}, availableMethods: Object.keys(ACCEPTED_PRIMARY_TYPES) });
  expect((await client.call('getEip712TypesForMethod')).status).toBe(400);
});

it('answers found: false for a method name that is an object\u2019s own property, not an operation', async () => {
  for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const reply = await client.call('getEip712TypesForMethod', { query: { method } });
    expect(reply.status, method).toBe(200);
    expect(reply.body, method).toMatchObject({ found: false, acceptedPrimaryTypes: [], types: {} });
  }
});
