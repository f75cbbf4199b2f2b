/**
 * scanZone against a real "old provider": BIND serves one zone that allows a transfer, one that refuses it, and the
 * name the old name server is known by; it is also the service's DNS_RESOLVER. One service and one BIND for the file;
 * the private-address rule's tests restart the service on the same data without SCAN_ALLOW_PRIVATE.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZoneScan } from '#core/operations/records.ts';
import { signZoneFile } from '../../test/support/bind.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { nameServersMissing, startNamed, type RunningNameServer } from '../../test/support/name-servers.ts';
import { freePort } from '../../test/support/ports.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { PROBE_QUERY_LIMIT } from './scan.ts';

const missing = nameServersMissing(['named']);
if (missing) throw new Error(missing);

const [OWNER_KEY, OTHER_KEY] = TEST_KEYS;
const AXFR_ZONE = 'moving-axfr.com';
const PROBE_ZONE = 'moving-probe.com';
const PROVIDER = 'old-provider.test';
const WILDCARD_ZONE = 'moving-wild.com';
const SIGNED_ZONE = 'moving-signed.com';
const DKIM = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu' + 'x'.repeat(300) + 'QIDAQAB';

/** The records each zone holds besides SOA and apex NS, in the service's stored form: what a scan must bring back. */
const common = (zone: string) => [
  { name: '@', type: 'A', rdata: '192.0.2.10', ttl: 300 },
  { name: '@', type: 'AAAA', rdata: '2001:db8::10', ttl: 300 },
  { name: '@', type: 'MX', rdata: `10 mail.${zone}.`, ttl: 3600 },
  { name: '@', type: 'MX', rdata: '20 backup-mx.example.net.', ttl: 3600 },
  { name: '@', type: 'TXT', rdata: '"v=spf1 mx include:_spf.example.net -all"', ttl: 300 },
  { name: '@', type: 'CAA', rdata: '0 issue "letsencrypt.org"', ttl: 3600 },
  { name: 'www', type: 'CNAME', rdata: `${zone}.`, ttl: 300 },
  { name: 'mail', type: 'A', rdata: '192.0.2.25', ttl: 300 },
  { name: 'api', type: 'A', rdata: '192.0.2.30', ttl: 60 },
  { name: 'api', type: 'AAAA', rdata: '2001:db8::30', ttl: 60 },
  { name: '_dmarc', type: 'TXT', rdata: `"v=DMARC1; p=quarantine; rua=mailto:dmarc@${zone}"`, ttl: 300 },
  { name: 'google._domainkey', type: 'TXT', rdata: `"v=DKIM1; k=rsa; p=${DKIM.slice(0, 230)}" "${DKIM.slice(230)}"`, ttl: 300 },
  { name: '_submission._tcp', type: 'SRV', rdata: `0 1 587 mail.${zone}.`, ttl: 300 },
  { name: '_imaps._tcp', type: 'SRV', rdata: `0 1 993 mail.${zone}.`, ttl: 300 },
  { name: 'mta-sts', type: 'CNAME', rdata: 'mta-sts.example.net.', ttl: 300 },
  { name: '_mta-sts', type: 'TXT', rdata: '"v=STSv1; id=20260101"', ttl: 300 },
];
/** Names no probe can guess: only a transfer brings them. */
const unguessable = [
  { name: 'payroll-2026', type: 'A', rdata: '192.0.2.77', ttl: 300 },
  { name: 'x7k2._domainkey', type: 'TXT', rdata: '"v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="', ttl: 300 },
  { name: 'lab', type: 'NS', rdata: `ns.lab.${AXFR_ZONE}.`, ttl: 86400 },
  { name: 'ns.lab', type: 'A', rdata: '192.0.2.53', ttl: 86400 },
];

function zoneFile(zone: string, records: Array<{ name: string; type: string; rdata: string; ttl: number }>): string {
  return [
    `$ORIGIN ${zone}.`,
    `@ 3600 IN SOA ns1.${PROVIDER}. hostmaster.${zone}. 2026010101 3600 600 86400 300`,
    `@ 3600 IN NS ns1.${PROVIDER}.`,
    `@ 3600 IN NS ns2.${PROVIDER}.`,
    ...records.map((r) => `${r.name} ${r.ttl} IN ${r.type} ${r.rdata}`),
    '',
  ].join('\n');
}

let dir: string;
let named: RunningNameServer;
let service: TestService;
let client: TestClient;
let ownerToken: string;
const queriesSpent: Record<string, number> = {};

const sorted = <T extends { name: string; type: string; rdata: string }>(records: T[]) =>
  [...records].sort((a, b) => `${a.name} ${a.type} ${a.rdata}`.localeCompare(`${b.name} ${b.type} ${b.rdata}`));

async function scan(zoneName: string, nameserver?: string, token = ownerToken) {
  return client.call('scanZone', { query: { zoneName, ...(nameserver === undefined ? {} : { nameserver }) }, headers: token ? client.withToken(token) : {} });
}
async function scanned(zoneName: string, nameserver?: string): Promise<ZoneScan> {
  const reply = await scan(zoneName, nameserver);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as ZoneScan;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'namefi-scan-'));
  const port = await freePort();
  writeFileSync(join(dir, 'axfr.db'), zoneFile(AXFR_ZONE, [...common(AXFR_ZONE), ...unguessable]));
  writeFileSync(join(dir, 'probe.db'), zoneFile(PROBE_ZONE, [...common(PROBE_ZONE), ...unguessable.slice(0, 2)]));
  writeFileSync(
    join(dir, 'wild.db'),
    zoneFile(WILDCARD_ZONE, [
      { name: '*', type: 'A', rdata: '192.0.2.99', ttl: 300 },
      { name: '*', type: 'TXT', rdata: '"anything"', ttl: 300 },
      { name: 'www', type: 'A', rdata: '192.0.2.10', ttl: 300 },
      ...Array.from({ length: 34 }, (_, i) => ({ name: `k${i}._domainkey`, type: 'TXT', rdata: '"v=DKIM1; p="', ttl: 300 })),
    ]),
  );
  writeFileSync(join(dir, 'signed.db'), zoneFile(SIGNED_ZONE, common(SIGNED_ZONE)));
  const signed = signZoneFile(SIGNED_ZONE, join(dir, 'signed.db'), dir);
  writeFileSync(join(dir, 'provider.db'), zoneFile(PROVIDER, [{ name: 'ns1', type: 'A', rdata: '127.0.0.1', ttl: 300 }, { name: 'ns2', type: 'A', rdata: '127.0.0.1', ttl: 300 }]));
  named = await startNamed(
    dir,
    port,
    [
      `zone "${AXFR_ZONE}" { type primary; file "${join(dir, 'axfr.db')}"; allow-transfer { any; }; };`,
      `zone "${PROBE_ZONE}" { type primary; file "${join(dir, 'probe.db')}"; allow-transfer { none; }; };`,
      `zone "${WILDCARD_ZONE}" { type primary; file "${join(dir, 'wild.db')}"; allow-transfer { none; }; };`,
      `zone "${PROVIDER}" { type primary; file "${join(dir, 'provider.db')}"; };`,
      `zone "${SIGNED_ZONE}" { type primary; file "${signed}"; allow-transfer { any; }; };`,
    ].join('\n'),
    AXFR_ZONE,
  );
  service = await startTestService({ DNS_RESOLVER: `127.0.0.1:${port}`, SCAN_ALLOW_PRIVATE: 'true' });
  client = testClient(service);
  for (const zone of [AXFR_ZONE, PROBE_ZONE, WILDCARD_ZONE, SIGNED_ZONE, 'not-served.com']) {
    await service.services.ownership.mint({ name: zone, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  }
  ownerToken = await client.signIn(OWNER_KEY);
}, 60_000);

afterAll(async () => {
  console.log(`scanZone queries spent per test zone: ${JSON.stringify(queriesSpent)}`);
  await service?.destroy();
  await named?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('scanZone with the private-address rule lifted (SCAN_ALLOW_PRIVATE=true)', () => {
  it('brings back every record of a zone BIND transfers (AXFR), without its SOA and apex NS, and they apply as they are', async () => {
    const result = await scanned(AXFR_ZONE, `127.0.0.1:${named.port}`);
    queriesSpent[`${AXFR_ZONE} (axfr)`] = result.queried;
    expect(result.method).toBe('axfr');
    expect(result.queried).toBe(1);
    expect(sorted(result.records)).toEqual(sorted([...common(AXFR_ZONE), ...unguessable]));

    // What the scan found is what the change set sends: the service takes all of it in one signed batch.
    expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: AXFR_ZONE, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
    const applied = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: AXFR_ZONE, records: result.records });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  });

  it('transfers a zone its old provider signed: the records as they are, its DNSSEC records left out and named', async () => {
    const result = await scanned(SIGNED_ZONE, `127.0.0.1:${named.port}`);
    expect(result.method).toBe('axfr');
    expect(sorted(result.records)).toEqual(sorted(common(SIGNED_ZONE)));
    const left = /old provider\u2019s DNSSEC records \(([^)]+)\) are left out/.exec(result.notes.join('\n'));
    expect(left?.[1].split(', ').sort()).toEqual(['DNSKEY', 'NSEC3', 'NSEC3PARAM', 'RRSIG']);
  });

  it('probes the common names of a zone whose transfer is refused, says what it could not find, within 300 queries', async () => {
    const result = await scanned(PROBE_ZONE, `127.0.0.1:${named.port}`);
    queriesSpent[`${PROBE_ZONE} (probe, asking BIND)`] = result.queried;
    expect(result.method).toBe('probe');
    expect(result.queried).toBeLessThanOrEqual(PROBE_QUERY_LIMIT);
    expect(sorted(result.records)).toEqual(sorted(common(PROBE_ZONE)));
    expect(result.notes.join('\n')).toContain('refused a zone transfer (REFUSED)');
    expect(result.notes.join('\n')).toMatch(/cannot guess other names/);
    expect(result.notes.join('\n')).toContain(`with ${result.queried - 1} queries`);
  });

  it('takes a wildcard as itself, not as the names it answers for, and stays within its 300 queries where every name exists', async () => {
    const result = await scanned(WILDCARD_ZONE, `127.0.0.1:${named.port}`);
    queriesSpent[`${WILDCARD_ZONE} (probe, a wildcard answers every name)`] = result.queried;
    expect(result.queried).toBeLessThanOrEqual(PROBE_QUERY_LIMIT + 1);
    const found = result.records.map((r) => `${r.name} ${r.type} ${r.rdata}`);
    expect(found).toContain('* A 192.0.2.99');
    expect(found).toContain('* TXT "anything"');
    expect(found).toContain('www A 192.0.2.10');
    // Synthesised answers are not records of their own.
    expect(found.filter((r) => r.endsWith('192.0.2.99'))).toEqual(['* A 192.0.2.99']);
    expect(result.notes.join('\n')).toContain('The zone has a wildcard');
  });

  it('probes through DNS_RESOLVER when no name server is given, and looks a name server up by name', async () => {
    const viaResolver = await scanned(PROBE_ZONE);
    queriesSpent[`${PROBE_ZONE} (probe, through DNS_RESOLVER)`] = viaResolver.queried;
    expect(viaResolver.method).toBe('probe');
    expect(sorted(viaResolver.records)).toEqual(sorted(common(PROBE_ZONE)));

    const byName = await scanned(AXFR_ZONE, `ns1.${PROVIDER}:${named.port}`);
    expect(byName.method).toBe('axfr');
    expect(byName.records).toHaveLength(common(AXFR_ZONE).length + unguessable.length);
  });

  it('refuses, at the nameserver field, a server that does not serve the zone or a malformed one', async () => {
    const notServed = await scan('not-served.com', `127.0.0.1:${named.port}`);
    expect(notServed.status).toBe(400);
    expect(notServed.body.data.fieldErrors.nameserver[0]).toMatch(/answered REFUSED for not-served\.com/);
    for (const bad of ['https://ns1.example.net/', 'ns1', '1.2.3.4:70000', '[zz::1]:53']) {
      const reply = await scan(PROBE_ZONE, bad);
      expect(reply.status, bad).toBe(400);
      expect(Object.keys(reply.body.data.fieldErrors), bad).toEqual(['nameserver']);
    }
  });

  it('is the owner\u2019s alone', async () => {
    expect((await scan(PROBE_ZONE, undefined, '')).status).toBe(401);
    expect((await scan(PROBE_ZONE, undefined, await client.signIn(OTHER_KEY))).status).toBe(403);
    expect((await scan('nobody-holds-this.com')).status).toBe(404);
  });
});

describe('scanZone and the private-address rule (the default)', () => {
  beforeAll(async () => {
    service = await service.restart({ DNS_RESOLVER: `127.0.0.1:${named.port}` });
    client = testClient(service);
    ownerToken = await client.signIn(OWNER_KEY);
  }, 60_000);

  it('refuses a loopback, private or link-local name server, given as an address or as a name that resolves to one', async () => {
    const before = await client.call('getDnsRecords', { query: { zoneName: PROBE_ZONE } });
    for (const [nameserver, shown] of [
      [`127.0.0.1:${named.port}`, '127.0.0.1'],
      ['[::1]:53', '::1'],
      ['10.0.0.53', '10.0.0.53'],
      ['169.254.169.254', '169.254.169.254'],
      ['[::ffff:127.0.0.1]:53', '127.0.0.1'],
      [`ns1.${PROVIDER}:${named.port}`, `ns1.${PROVIDER} (127.0.0.1)`],
    ]) {
      const reply = await scan(PROBE_ZONE, nameserver);
      expect(reply.status, nameserver).toBe(400);
      expect(reply.body.data.rule, nameserver).toBe('SCAN_PRIVATE_ADDRESS');
      expect(reply.body.data.fieldErrors.nameserver[0], nameserver).toContain(`${shown} is a loopback, private or link-local address`);
    }
    // Nothing is written by a scan, refused or not.
    expect((await client.call('getDnsRecords', { query: { zoneName: PROBE_ZONE } })).body).toEqual(before.body);
  });
});
