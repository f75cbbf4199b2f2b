import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';

/** A relay forwards someone's signed request and adds or changes what the signature does not cover. */
const [OWNER_KEY, RELAY_KEY] = TEST_KEYS;
const OWNER = addressOf(OWNER_KEY);
const RELAY = addressOf(RELAY_KEY);
const ZONE = 'signed-only.com';

let service: TestService;
let client: TestClient;
let ownerToken: string;

beforeAll(async () => {
  service = await startTestService({ ORDER_PROCESSING_MS: '50' });
  client = testClient(service);
  await service.services.ownership.mint({ name: ZONE, to: OWNER, chainId: 31337, years: 1, now: new Date() });
  ownerToken = await client.signIn(OWNER_KEY);
  expect((await client.call('requestFaucet', { body: {}, headers: client.withToken(ownerToken) })).status).toBe(200);
});
afterAll(() => service.destroy());

const ordersOfOwner = async () => (await client.call('getUserOrders', { headers: client.withToken(ownerToken) })).body as Array<{ normalizedDomainName: string }>;
const zone = async () => (await client.call('getDnsRecords', { query: { zoneName: ZONE } })).body as Array<{ id: string; name: string; type: string; rdata: string }>;

function expectUnsigned(reply: { status: number; body: any }, paths: string[]) {
  expect(reply.status).toBe(400);
  expect(reply.body).toMatchObject({ code: 'BAD_REQUEST', data: { rule: 'UNSIGNED_FIELD' } });
  expect(Object.keys(reply.body.data.fieldErrors)).toEqual(paths);
  for (const path of paths) expect(reply.body.message).toContain(path);
}

describe('a registration carries only what was signed', () => {
  it('refuses a receiving wallet a relay added to a default-wallet registration, and the signed order still goes through', async () => {
    const payload = { normalizedDomainName: 'relay-steal.com', durationInYears: 1 };
    const nonce = `0x${'ab'.repeat(32)}`;
    const stolen = await client.signed(OWNER_KEY, 'registerDomain', payload, {
      nonce,
      tamper: (e) => ({ ...e, payload: { ...e.payload, nftReceivingWallet: { walletAddress: RELAY, chainId: 31337 } } }),
    });
    expectUnsigned(stolen, ['nftReceivingWallet']);
    expect((await ordersOfOwner()).map((o) => o.normalizedDomainName)).not.toContain('relay-steal.com');
    // Nothing was spent: the owner's own request, as signed, is taken.
    const honest = await client.signed(OWNER_KEY, 'registerDomain', payload, { nonce });
    expect(honest.status).toBe(200);
    expect(honest.body.items[0]).toMatchObject({ normalizedDomainName: 'relay-steal.com' });
    expect(honest.body).toMatchObject({ nftWalletAddress: OWNER.toLowerCase() });
  });

  it('refuses a receiving wallet added to a registration with records', async () => {
    const reply = await client.signed(
      OWNER_KEY,
      'registerWithRecords',
      { normalizedDomainName: 'relay-records.com', durationInYears: 1, records: [{ name: 'www', type: 'A', rdata: '1.2.3.4', ttl: 60 }] },
      { tamper: (e) => ({ ...e, payload: { ...e.payload, nftReceivingWallet: { walletAddress: RELAY, chainId: 31337 } } }) },
    );
    expectUnsigned(reply, ['nftReceivingWallet']);
  });

  it('names an unsigned field inside the signed receiving wallet', async () => {
    const reply = await client.signed(
      OWNER_KEY,
      'registerDomain',
      { normalizedDomainName: 'relay-nested.com', durationInYears: 1, nftReceivingWallet: { walletAddress: OWNER, chainId: 31337 } },
      { tamper: (e) => ({ ...e, payload: { ...e.payload, nftReceivingWallet: { ...e.payload.nftReceivingWallet, owner: RELAY } } }) },
    );
    expectUnsigned(reply, ['nftReceivingWallet.owner']);
  });

  it('refuses a receiving wallet a relay fills into a registration signed with an empty one', async () => {
    const empty = { walletAddress: '', chainId: 0 };
    const reply = await client.signed(OWNER_KEY, 'registerDomain', { normalizedDomainName: 'relay-empty.com', durationInYears: 1, nftReceivingWallet: empty }, {
      primaryType: 'InstantRegisterDomainEnvelope',
      tamper: (e) => ({ ...e, payload: { ...e.payload, nftReceivingWallet: { walletAddress: RELAY, chainId: 31337 } } }),
    });
    expect(reply.headers.get('content-type')).toMatch(/json/);
    expect(reply.status).toBe(401);
  });
});

describe('a record write carries only what was signed', () => {
  it('refuses class, metadata and owner extras, naming each, and writes nothing', async () => {
    const before = await zone();
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, name: 'extras', type: 'TXT', rdata: '"x"', ttl: 60 }, {
      tamper: (e) => ({ ...e, payload: { ...e.payload, class: 'CH', metadata: { managed: true }, owner: RELAY } }),
    });
    expectUnsigned(reply, ['class', 'metadata', 'owner']);
    expect(await zone()).toEqual(before);
  });

  it('signs the record type with the typed struct, so a relay cannot turn a TXT into a CNAME', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, name: 'typed', type: 'TXT', rdata: '"v=1"', ttl: 60 });
    expect(reply.status).toBe(200);
    const relayed = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, name: 'typed2', type: 'TXT', rdata: 'target.example.', ttl: 60 }, {
      tamper: (e) => ({ ...e, payload: { ...e.payload, type: 'CNAME' } }),
    });
    expect(relayed.status).toBe(401);
    expect((await zone()).some((r) => r.name === 'typed2')).toBe(false);
  });

  it('still takes the seed\u2019s untyped struct with an unsigned type, its known weakness', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, name: 'seed', type: 'TXT', rdata: '"seed"', ttl: 60 }, { primaryType: 'CreateDnsRecordEnvelope' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ name: 'seed', type: 'TXT' });
  });

  it('signs an update\u2019s type with the typed struct', async () => {
    const created = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, name: 'retype', type: 'TXT', rdata: '"a"', ttl: 60 });
    const id = created.body.id as string;
    const relayed = await client.signed(OWNER_KEY, 'updateDnsRecord', { id, zoneName: ZONE, name: 'retype', type: 'TXT', rdata: 'a.example.', ttl: 60 }, {
      tamper: (e) => ({ ...e, payload: { ...e.payload, type: 'CNAME' } }),
    });
    expect(relayed.status).toBe(401);
    const signed = await client.signed(OWNER_KEY, 'updateDnsRecord', { id, zoneName: ZONE, name: 'retype', type: 'CNAME', rdata: 'a.example.', ttl: 60 });
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ id, type: 'CNAME', rdata: 'a.example.' });
  });

  it('refuses a type added to a batch update, which UpdateZoneRecord does not sign, and leaves the record as it was', async () => {
    const created = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, name: 'batch', type: 'CNAME', rdata: 'b.example.', ttl: 60 });
    const id = created.body.id as string;
    const reply = await client.signed(OWNER_KEY, 'batchUpdateDnsRecords', { zoneName: ZONE, records: [{ id, name: 'batch', rdata: 'ns1.example.', ttl: 60 }] }, {
      tamper: (e) => ({ ...e, payload: { ...e.payload, records: [{ ...e.payload.records[0], type: 'NS' }] } }),
    });
    expectUnsigned(reply, ['records.0.type']);
    expect((await zone()).find((r) => r.id === id)).toMatchObject({ type: 'CNAME', rdata: 'b.example.' });
  });
});

describe('types-for-method', () => {
  it('lists the typed record structs first', async () => {
    for (const [method, typed] of [['createDnsRecord', 'CreateTypedDnsRecordEnvelope'], ['updateDnsRecord', 'UpdateTypedDnsRecordEnvelope']]) {
      const reply = await client.call('getEip712TypesForMethod', { query: { method } });
      expect(reply.body.acceptedPrimaryTypes[0]).toBe(typed);
      expect(reply.body.types[typed.replace(/Envelope$/, '')].map((f: { name: string }) => f.name)).toContain('type');
    }
  });
});
