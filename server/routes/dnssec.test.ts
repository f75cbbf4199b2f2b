import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

const [OWNER_KEY] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let count = 0;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

async function domain() {
  const name = `sig${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  return name;
}
const toggle = (name: string, enabled: boolean) => client.signed(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: name, enabled });

describe('the domains list says which zones are signed', () => {
  it('isDnssecEnabled follows the switch, per domain', async () => {
    const [signed, plain] = [await domain(), await domain()];
    expect((await toggle(signed, true)).status).toBe(200);
    const token = await client.signIn(OWNER_KEY);
    const listed = async () => {
      const body = (await client.call('getUserDomains', { headers: client.withToken(token) })).body as Array<{ normalizedDomainName: string; dnsStatus: { isDnssecEnabled?: boolean } }>;
      return Object.fromEntries(body.filter((d) => d.normalizedDomainName === signed || d.normalizedDomainName === plain).map((d) => [d.normalizedDomainName, d.dnsStatus.isDnssecEnabled]));
    };
    expect(await listed()).toEqual({ [signed]: true, [plain]: false });
    expect((await toggle(signed, false)).status).toBe(200);
    expect(await listed()).toEqual({ [signed]: false, [plain]: false });
  });
});

describe("a signed zone lists its key records as DNSSEC's managed, read-only records", () => {
  type Listed = { id: string; name: string; type: string; rdata: string; metadata: unknown };
  const list = async (zoneName: string) => (await client.call('getDnsRecords', { query: { zoneName } })).body as Listed[];
  const dnssecRows = (records: Listed[]) => records.filter((r) => ['DNSKEY', 'CDS', 'CDNSKEY'].includes(r.type));

  it('lists DNSKEY, CDNSKEY and CDS from the zone key, refuses every write of them, and drops them when DNSSEC is off', async () => {
    const name = await domain();
    expect((await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: name, records: [{ name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 }] })).status).toBe(200);
    expect(dnssecRows(await list(name))).toEqual([]);
    const state = (await toggle(name, true)).body as { keyTag: number; dnskey: string; ds: Array<{ digest: string }> };

    const rows = dnssecRows(await list(name));
    expect(rows.map((r) => r.type).sort()).toEqual(['CDNSKEY', 'CDS', 'DNSKEY']);
    for (const r of rows) expect([r.name, r.metadata]).toEqual(['@', { managed: true, managedBy: 'dnssec' }]);
    const byType = Object.fromEntries(rows.map((r) => [r.type, r.rdata]));
    expect(`${name}. 3600 IN DNSKEY ${byType.DNSKEY}`).toBe(state.dnskey);
    expect(byType.CDNSKEY).toBe(byType.DNSKEY);
    expect(byType.CDS).toBe(`${state.keyTag} 13 2 ${state.ds[0].digest}`);
    // The owner's own record is still listed beside them.
    expect((await list(name)).some((r) => r.name === 'www' && r.type === 'A')).toBe(true);

    const dnskey = rows.find((r) => r.type === 'DNSKEY')!;
    const refused = (reply: { status: number; body: any }) => [reply.status, reply.body.data?.rule];
    expect(refused(await client.signed(OWNER_KEY, 'deleteDnsRecord', { id: dnskey.id, zoneName: name }))).toEqual([400, 'DNS_MANAGED_RECORD']);
    const edit = await client.signed(OWNER_KEY, 'updateDnsRecord', { id: dnskey.id, zoneName: name, name: '@', type: 'TXT', rdata: '"mine"', ttl: 300 });
    expect(refused(edit)).toEqual([400, 'DNS_MANAGED_RECORD']);
    expect(edit.body.message).toMatch(/DNSSEC/);
    // No write names a managed-only type: the schema refuses it.
    const own = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: name, records: [{ name: '@', type: 'CDS', rdata: byType.CDS, ttl: 300 }] });
    expect(own.status).toBe(400);
    expect(dnssecRows(await list(name))).toHaveLength(3);

    expect((await toggle(name, false)).status).toBe(200);
    expect(dnssecRows(await list(name))).toEqual([]);
  });
});
