import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCEPTED_PRIMARY_TYPES, TYPE_REGISTRY } from '../../src/core/eip712/registry.ts';
import { startTestService, type TestService } from '../test-support/test-service.ts';
import { testClient, type TestClient } from '../test-support/client.ts';

let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

it('publishes the chain-agnostic signing domain, ignoring chain', async () => {
  expect((await client.call('getEip712Domain')).body).toEqual({ name: 'Namefi', version: '1' });
  expect((await client.call('getEip712Domain', { query: { chain: '8453' } })).body).toEqual({ name: 'Namefi', version: '1' });
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
