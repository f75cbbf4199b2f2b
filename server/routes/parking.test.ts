import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';

const [OWNER_KEY, OTHER_KEY] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let count = 0;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

async function domain(owner: Hex = OWNER_KEY) {
  const name = `park${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(owner), chainId: 31337, years: 1, now: new Date() });
  return name;
}
const parked = async (name: string) => (await client.call('isDomainParked', { query: { normalizedDomainName: name } })).body;
const records = async (zoneName: string) =>
  ((await client.call('getDnsRecords', { query: { zoneName } })).body as Array<{ name: string; type: string; rdata: string; metadata: any }>).map(
    (r) => `${r.metadata?.managed ? 'parking ' : ''}${r.name} ${r.type} ${r.rdata}`,
  );
const toggle = (name: string, enableParking: boolean, overrideExistingRecords: boolean, key: Hex = OWNER_KEY) =>
  client.signed(key, 'toggleDomainParking', { normalizedDomainName: name, enableParking, overrideExistingRecords });
const park = (name: string, overrideExistingRecords: boolean, key: Hex = OWNER_KEY) =>
  client.signed(key, 'parkDomain', { normalizedDomainName: name, overrideExistingRecords });

/** An unparked domain with apex A, AAAA, CAA, MX, TXT and a www A. */
async function withRecords() {
  const name = await domain();
  expect((await toggle(name, false, false)).body).toEqual({ success: true });
  const reply = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', {
    zoneName: name,
    records: [
      { name: '@', type: 'A', rdata: '192.0.2.1', ttl: 300 },
      { name: '@', type: 'AAAA', rdata: '2001:db8::1', ttl: 300 },
      { name: '@', type: 'CAA', rdata: '0 issue "pki.example"', ttl: 300 },
      { name: '@', type: 'MX', rdata: '10 mail.example.com.', ttl: 300 },
      { name: '@', type: 'TXT', rdata: '"v=spf1 -all"', ttl: 300 },
      { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 },
    ],
  });
  expect(reply.status).toBe(200);
  return name;
}

const PARKING = ['parking @ A 34.123.0.161', 'parking @ AAAA 2600:1900:4000:1102:8000::', 'parking @ CAA 0 issue "letsencrypt.org"', 'parking @ CAA 0 issue "zerossl.com"'];
const USER = ['@ A 192.0.2.1', '@ AAAA 2001:db8::1', '@ CAA 0 issue "pki.example"', '@ MX 10 mail.example.com.', '@ TXT "v=spf1 -all"', 'www A 192.0.2.1'];

describe('parking', () => {
  it('a new domain starts parked and serves the parking records', async () => {
    const name = await domain();
    expect(await parked(name)).toEqual({ parked: true });
    expect(await records(name)).toEqual(PARKING);
  });

  it('unparking keeps stored records and drops the parking ones; doing it twice changes nothing', async () => {
    const name = await withRecords();
    expect(await parked(name)).toEqual({ parked: false });
    expect(await records(name)).toEqual(USER);
    expect((await toggle(name, false, true)).body).toEqual({ success: true });
    expect(await records(name)).toEqual(USER);
  });

  it('parking with override deletes the apex A, AAAA and CAA only', async () => {
    const name = await withRecords();
    expect((await park(name, true)).body).toEqual({ success: true });
    expect(await parked(name)).toEqual({ parked: true });
    expect(await records(name)).toEqual([...PARKING, '@ MX 10 mail.example.com.', '@ TXT "v=spf1 -all"', 'www A 192.0.2.1']);
  });

  it('parking without override keeps them beside the parking records; parking again changes nothing', async () => {
    const name = await withRecords();
    expect((await toggle(name, true, false)).body).toEqual({ success: true });
    expect(await records(name)).toEqual([...PARKING, ...USER]);
    expect((await park(name, true)).body).toEqual({ success: true });
    expect(await records(name)).toEqual([...PARKING, ...USER]);
    // Unparking then keeps every stored record.
    await toggle(name, false, true);
    expect(await records(name)).toEqual(USER);
  });

  it('only the owner may park: 403 for another wallet, 404 for a domain nobody owns, 401 for SIWE alone', async () => {
    const name = await domain();
    const other = await toggle(name, false, false, OTHER_KEY);
    expect(other.status).toBe(403);
    expect(other.body.data).toEqual({ domain: name, owner: addressOf(OWNER_KEY).toLowerCase() });
    expect(await parked(name)).toEqual({ parked: true });
    expect((await park('nobody-owns.com', false)).status).toBe(404);
    expect((await client.call('isDomainParked', { query: { normalizedDomainName: 'nobody-owns.com' } })).status).toBe(404);
    const token = await client.signIn(OWNER_KEY);
    const siwe = await client.call('parkDomain', { body: { normalizedDomainName: name, overrideExistingRecords: false }, headers: client.withToken(token) });
    expect(siwe.status).toBe(401);
  });

  it('takes an API key, and a bad payload is a 400', async () => {
    const name = await domain();
    const token = await client.signIn(OWNER_KEY);
    const key = (await client.call('createApiKey', { body: { label: 'parking' }, headers: client.withToken(token) })).body.key;
    const reply = await client.call('toggleDomainParking', { body: { normalizedDomainName: name, enableParking: false, overrideExistingRecords: false }, headers: client.withApiKey(key) });
    expect(reply).toMatchObject({ status: 200, body: { success: true } });
    expect(await parked(name)).toEqual({ parked: false });
    const bad = await client.call('parkDomain', { body: { normalizedDomainName: name }, headers: client.withApiKey(key) });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fieldErrors.overrideExistingRecords).toBeDefined();
  });
});
