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

async function zone(): Promise<string> {
  const name = `rules${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: name, enableParking: false, overrideExistingRecords: false });
  return name;
}
const batch = (zoneName: string, records: Array<Record<string, unknown>>) => client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName, records });

describe('the service applies the DNS rules as BIND reads them', () => {
  it('stores wildcards, every CAA tag of the registry, an unknown tag as written, and a delegation with its glue', async () => {
    const z = await zone();
    const reply = await batch(z, [
      { name: '*', type: 'A', rdata: '192.0.2.1', ttl: 300 },
      { name: '*.shop', type: 'CNAME', rdata: 'shops.example.net', ttl: 300 },
      { name: '@', type: 'CAA', rdata: '0 IssueMail "letsencrypt.org"', ttl: 300 },
      { name: '@', type: 'CAA', rdata: '0 contactphone "+1 555 0100"', ttl: 300 },
      { name: '@', type: 'CAA', rdata: '0 Policy42 "kept"', ttl: 300 },
      { name: 'lab', type: 'NS', rdata: `ns1.lab.${z}.`, ttl: 300 },
      { name: 'ns1.lab', type: 'A', rdata: '192.0.2.53', ttl: 300 },
    ]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.map((r: { name: string; rdata: string }) => `${r.name} ${r.rdata}`)).toEqual([
      '* 192.0.2.1',
      '*.shop shops.example.net.',
      '@ 0 issuemail "letsencrypt.org"',
      '@ 0 contactphone "+1 555 0100"',
      '@ 0 Policy42 "kept"',
      `lab ns1.lab.${z}.`,
      'ns1.lab 192.0.2.53',
    ]);
  });

  it('refuses what is not glue below a delegation, a wildcard that is not leftmost, and a wildcard CNAME beside other data', async () => {
    const z = await zone();
    expect((await batch(z, [{ name: 'lab', type: 'NS', rdata: `ns1.lab.${z}.`, ttl: 300 }])).status).toBe(200);
    const below = await batch(z, [{ name: 'www.lab', type: 'A', rdata: '192.0.2.9', ttl: 300 }]);
    expect(below.status).toBe(400);
    expect(below.body.data.rule).toBe('DNS_BELOW_DELEGATION');
    const inner = await batch(z, [{ name: 'a.*', type: 'A', rdata: '192.0.2.9', ttl: 300 }]);
    expect(inner.status).toBe(400);
    expect(inner.body.data.fieldErrors['records.0.name'][0]).toMatch(/A wildcard \(\*\) can only be the first part/);
    const cname = await batch(z, [
      { name: '*', type: 'TXT', rdata: 'x', ttl: 300 },
      { name: '*', type: 'CNAME', rdata: 'elsewhere.example.net', ttl: 300 },
    ]);
    expect(cname.status).toBe(400);
    expect(cname.body.data.rule).toBe('DNS_CNAME_CONFLICT');
  });
});
