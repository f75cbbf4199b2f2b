/**
 * The service as a hidden primary behind Debian's real name servers: BIND 9 and Knot DNS configured with nothing but
 * the catalog zone and the TSIG key, NSD with its zone named one by one. NOTIFY, TSIG, IXFR and the catalog zone are
 * shown working by what those servers then answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnssecState } from '#core/wire/dnssec.ts';
import { delv, dig } from '../../test/support/bind.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { nameServersMissing, startKnot, startNamed, startNsd, type RunningNameServer } from '../../test/support/name-servers.ts';
import { renewDueSignatures } from '../zones/signature-renewal.ts';
import { recordTransfer } from '../zones/transfers.ts';
import { freePort } from '../../test/support/ports.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

const missing = nameServersMissing(['named', 'knotd', 'nsd']);
if (missing) throw new Error(missing);

const [OWNER_KEY, RECEIVER_KEY] = TEST_KEYS;
const CATALOG = 'catalog.namefi.test';
const KEY_NAME = 'xfr-key';
const SECRET = Buffer.from('a test secret of thirty-two bytes').toString('base64');
const TSIG = `hmac-sha256:${KEY_NAME}:${SECRET}`;
const NSD_ZONE = 'nsd-served.com';

let dir: string;
let service: TestService;
let client: TestClient;
let primary: number;
const servers: Record<'named' | 'knotd' | 'nsd', RunningNameServer | undefined> = { named: undefined, knotd: undefined, nsd: undefined };

async function register(zone: string, records: Array<{ name: string; type: string; rdata: string; ttl: number }>) {
  await service.services.ownership.mint({ name: zone, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
  const reply = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: zone, records });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/** Asks `port` until `check` passes on dig's short answer; answers the seconds it took, or throws after `limitMs`. */
async function until(port: number, args: string[], check: (answer: string) => boolean, limitMs = 10_000): Promise<number> {
  const started = performance.now();
  let last = '';
  while (performance.now() - started < limitMs) {
    last = (await dig(port, ['+short', '+norec', '+time=1', ...args]).catch(() => '')).trim();
    if (check(last)) return (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`port ${port} still answers ${JSON.stringify(last)} to ${args.join(' ')}`);
}

const serialOf = async (port: number, zone: string) => Number((await dig(port, ['+short', zone, 'SOA'])).trim().split(' ')[2]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'namefi-secondaries-'));
  const ports = { named: await freePort(), knotd: await freePort(), nsd: await freePort() };
  service = await startTestService({
    DNS_PORT: '0',
    DNS_TSIG_KEYS: `${KEY_NAME}:hmac-sha256:${SECRET}`,
    DNS_AXFR_ALLOW: '127.0.0.1',
    DNS_ALSO_NOTIFY: Object.values(ports).map((p) => `127.0.0.1:${p}`).join(','),
  });
  client = testClient(service);
  primary = service.dns?.port as number;
  await register(NSD_ZONE, [{ name: 'www', type: 'A', rdata: '192.0.2.80', ttl: 60 }]);

  const bindKey = `key "${KEY_NAME}" { algorithm hmac-sha256; secret "${SECRET}"; };`;
  const [named, knotd, nsd] = await Promise.all([
    startNamed(
      join(dir, 'named'),
      ports.named,
      `${bindKey}\nzone "${CATALOG}" { type secondary; primaries { 127.0.0.1 port ${primary} key "${KEY_NAME}"; }; file "catalog.db"; };`,
      // Ready once the catalog brought it the zone that already exists.
      NSD_ZONE,
      `allow-new-zones yes; notify no; allow-transfer { 127.0.0.1; }; catalog-zones { zone "${CATALOG}" default-primaries { 127.0.0.1 port ${primary} key "${KEY_NAME}"; } in-memory yes min-update-interval 1; };`,
    ),
    startKnot(
      join(dir, 'knotd'),
      ports.knotd,
      `key:\n  - id: ${KEY_NAME}\n    algorithm: hmac-sha256\n    secret: ${SECRET}\n` +
        `remote:\n  - id: primary\n    address: 127.0.0.1@${primary}\n    key: ${KEY_NAME}\n` +
        `acl:\n  - id: from-primary\n    address: 127.0.0.1\n    key: ${KEY_NAME}\n    action: notify\n` +
        `template:\n  - id: member\n    master: primary\n    acl: from-primary\n    zonefile-sync: -1\n    zonefile-load: none\n` +
        `zone:\n  - domain: ${CATALOG}\n    master: primary\n    acl: from-primary\n    catalog-role: interpret\n    catalog-template: member\n    zonefile-sync: -1\n    zonefile-load: none\n`,
      NSD_ZONE,
    ),
    startNsd(
      join(dir, 'nsd'),
      ports.nsd,
      `key:\n    name: ${KEY_NAME}\n    algorithm: hmac-sha256\n    secret: "${SECRET}"\n` +
        `zone:\n    name: ${NSD_ZONE}\n    allow-notify: 127.0.0.1 ${KEY_NAME}\n    request-xfr: 127.0.0.1@${primary} ${KEY_NAME}\n`,
      NSD_ZONE,
    ),
  ]);
  Object.assign(servers, { named, knotd, nsd });
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s?.stop()));
  await service?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('real secondaries fed by the service', () => {
  it('a newly registered domain is served by both catalog consumers, BIND and Knot, without a change to their configuration', async () => {
    const zone = 'catalog-new.com';
    await register(zone, [{ name: '@', type: 'A', rdata: '192.0.2.7', ttl: 60 }]);
    for (const kind of ['named', 'knotd'] as const) {
      const seconds = await until(servers[kind]!.port, [zone, 'A'], (a) => a === '192.0.2.7');
      console.log(`${kind}: serves the new zone ${zone} ${seconds.toFixed(2)} s after its records were written`);
    }
  });

  it('a signed record change is answered by each secondary with the service serial, and NOTIFY is what tells them', async () => {
    const zone = 'catalog-change.com';
    await register(zone, [{ name: 'api', type: 'A', rdata: '192.0.2.1', ttl: 60 }]);
    for (const kind of ['named', 'knotd'] as const) await until(servers[kind]!.port, [`api.${zone}`, 'A'], (a) => a === '192.0.2.1');
    const answered = service.notifier?.answered ?? 0;
    const created = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: zone, name: 'api', type: 'TXT', rdata: '"changed"', ttl: 60 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const serial = await serialOf(primary, zone);
    const nsdChange = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: NSD_ZONE, name: 'www', type: 'TXT', rdata: '"changed"', ttl: 60 });
    expect(nsdChange.status).toBe(200);
    const nsdSerial = await serialOf(primary, NSD_ZONE);
    const times = await Promise.all([
      ...(['named', 'knotd'] as const).map(async (kind) => [kind, await until(servers[kind]!.port, [`api.${zone}`, 'TXT'], (a) => a === '"changed"')] as const),
      (async () => ['nsd', await until(servers.nsd!.port, [`www.${NSD_ZONE}`, 'TXT'], (a) => a === '"changed"')] as const)(),
    ]);
    for (const [kind, seconds] of times) console.log(`${kind}: answers the signed change ${seconds.toFixed(3)} s after it was accepted`);
    expect(await serialOf(servers.named!.port, zone)).toBe(serial);
    expect(await serialOf(servers.knotd!.port, zone)).toBe(serial);
    expect(await serialOf(servers.nsd!.port, NSD_ZONE)).toBe(nsdSerial);
    // Well within NOTIFY's first try: a secondary left to its SOA refresh timer (an hour) would not have asked yet.
    for (const [, seconds] of times) expect(seconds).toBeLessThan(5);
    expect(service.notifier?.answered ?? 0).toBeGreaterThan(answered);
    // The change travelled as an incremental transfer, read from the history.
    expect(servers.knotd!.log()).toMatch(new RegExp(`\\[${zone.replace('.', '\\.')}\\.\\] IXFR, incoming, remote [^,]+, finished`));
  });

  it('an IXFR after a small change holds only the difference, signed; AXFR holds the zone', async () => {
    const zone = 'ixfr-small.com';
    // Large enough that the AXFR takes two messages, each signed in turn (RFC 8945 §5.3.1).
    await register(zone, Array.from({ length: 600 }, (_, i) => ({ name: `h${i}`, type: 'A', rdata: `198.51.100.${i % 250}`, ttl: 300 })));
    const before = await serialOf(primary, zone);
    const created = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: zone, name: 'new', type: 'A', rdata: '192.0.2.200', ttl: 300 });
    expect(created.status).toBe(200);
    const ixfr = await dig(primary, ['-y', TSIG, zone, `IXFR=${before}`]);
    const axfr = await dig(primary, ['-y', TSIG, zone, 'AXFR']);
    const lines = (text: string) => text.split('\n').filter((l) => l && !l.startsWith(';'));
    const records = (text: string) => lines(text).filter((l) => l.split(/\s+/)[3] !== 'TSIG');
    const size = (text: string) => /XFR size: ([0-9]+) records \(messages ([0-9]+), bytes ([0-9]+)\)/.exec(text)?.slice(1).map(Number);
    const [ixfrRecords, , ixfrBytes] = size(ixfr) ?? [];
    const [axfrRecords, , axfrBytes] = size(axfr) ?? [];
    console.log(`IXFR from serial ${before} after one added record: ${ixfrRecords} records, ${ixfrBytes} bytes; AXFR of the same zone: ${axfrRecords} records, ${axfrBytes} bytes`);
    expect(records(ixfr).map((l) => l.split(/\s+/).slice(3).join(' '))).toEqual([
      expect.stringMatching(new RegExp(`^SOA .* ${before + 1} `)),
      expect.stringMatching(new RegExp(`^SOA .* ${before} `)),
      expect.stringMatching(new RegExp(`^SOA .* ${before + 1} `)),
      'A 192.0.2.200',
      expect.stringMatching(new RegExp(`^SOA .* ${before + 1} `)),
    ]);
    // Signed with the key, and dig (given the key) checked the signature.
    expect(lines(ixfr).filter((l) => l.startsWith(`${KEY_NAME}.`) && l.includes('TSIG'))).toHaveLength(1);
    expect(ixfr).not.toMatch(/tsig verify failure|Transfer failed/);
    expect(size(axfr)?.[1]).toBe(2);
    expect(axfr).not.toMatch(/tsig verify failure|Transfer failed/);
    expect(records(axfr).length).toBe(600 + 2 + 1 + 2);
  });

  it('an IXFR carries parking turned on as its records, and from a serial the history does not hold is the whole zone', async () => {
    const zone = 'ixfr-parking.com';
    await register(zone, [{ name: 'mail', type: 'A', rdata: '192.0.2.25', ttl: 300 }]);
    const before = await serialOf(primary, zone);
    expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: true, overrideExistingRecords: false })).status).toBe(200);
    const rows = (text: string) => text.split('\n').filter((l) => l && !l.startsWith(';') && !l.includes('TSIG')).map((l) => l.split(/\s+/).slice(3).join(' '));
    const ixfr = rows(await dig(primary, ['-y', TSIG, zone, `IXFR=${before}`]));
    expect(ixfr.slice(3, -1).sort()).toEqual(['A 34.123.0.161', 'AAAA 2600:1900:4000:1102:8000::', 'CAA 0 issue "letsencrypt.org"', 'CAA 0 issue "zerossl.com"']);
    // Serial 0 is one the history never held: the answer is the whole zone, as AXFR gives it.
    const whole = rows(await dig(primary, ['-y', TSIG, zone, 'IXFR=0']));
    expect(whole.sort()).toEqual(rows(await dig(primary, ['-y', TSIG, zone, 'AXFR'])).sort());
    expect(whole).toContain('A 192.0.2.25');
  });

  it('an IXFR passes over an entry that moved no serial (the domain sent to another wallet): the differences, not the whole zone', async () => {
    const zone = 'ixfr-transfer.com';
    await register(zone, [{ name: 'mail', type: 'A', rdata: '192.0.2.27', ttl: 300 }]);
    const before = await serialOf(primary, zone);
    expect((await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: zone, name: 'one', type: 'A', rdata: '192.0.2.31', ttl: 300 })).status).toBe(200);
    const [from, to] = [addressOf(OWNER_KEY).toLowerCase(), addressOf(RECEIVER_KEY).toLowerCase()];
    expect(await recordTransfer(service.services, { chainId: 31337, zoneName: zone, from, to, sender: from, txHash: `0x${'ab'.repeat(32)}`, logIndex: 0, blockNumber: 1 })).toBe(true);
    expect(await serialOf(primary, zone)).toBe(before + 1);
    expect((await client.signed(RECEIVER_KEY, 'createDnsRecord', { zoneName: zone, name: 'two', type: 'A', rdata: '192.0.2.32', ttl: 300 })).status).toBe(200);
    const rows = (text: string) => text.split('\n').filter((l) => l && !l.startsWith(';') && !l.includes('TSIG')).map((l) => l.split(/\s+/).slice(3).join(' '));
    const ixfr = rows(await dig(primary, ['-y', TSIG, zone, `IXFR=${before}`]));
    const soa = (serial: number) => expect.stringMatching(new RegExp(`^SOA \\S+ \\S+ ${serial} `));
    expect(ixfr).toEqual([soa(before + 2), soa(before), soa(before + 1), 'A 192.0.2.31', soa(before + 1), soa(before + 2), 'A 192.0.2.32', soa(before + 2)]);
  });

  it("an IXFR carries forwarding turned on as the forwarder's apex address added, and turned off as it deleted", async () => {
    const zone = 'ixfr-forwarding.com';
    await register(zone, [{ name: 'mail', type: 'A', rdata: '192.0.2.26', ttl: 300 }]);
    const before = await serialOf(primary, zone);
    const setting = { normalizedDomainName: zone, enabled: true, targetUrl: 'https://example.net/landing', statusCode: 302, keepPath: true };
    expect((await client.signed(OWNER_KEY, 'setForwarding', setting)).status).toBe(200);
    expect((await client.signed(OWNER_KEY, 'setForwarding', { ...setting, enabled: false })).status).toBe(200);
    const rows = (text: string) => text.split('\n').filter((l) => l && !l.startsWith(';') && !l.includes('TSIG')).map((l) => l.split(/\s+/).slice(3).join(' '));
    const ixfr = rows(await dig(primary, ['-y', TSIG, zone, `IXFR=${before}`]));
    const soa = (serial: number) => expect.stringMatching(new RegExp(`^SOA \\S+ \\S+ ${serial} `));
    // SOA now; SOA before, (nothing removed), SOA after turning it on, the forwarder added; then it removed, and the SOA of turning it off; SOA now.
    expect(ixfr).toEqual([soa(before + 2), soa(before), soa(before + 1), 'A 127.0.0.1', soa(before + 1), 'A 127.0.0.1', soa(before + 2), soa(before + 2)]);
  });

  it('an IXFR across DNSSEC turned on and off is the whole zone as it stands, unsigned, not differences that leave a secondary the DNSKEY, RRSIGs and NSECs', async () => {
    const zone = 'ixfr-dnssec-off.com';
    await register(zone, [{ name: 'mail', type: 'A', rdata: '192.0.2.27', ttl: 300 }]);
    const before = await serialOf(primary, zone);
    for (const enabled of [true, false]) expect((await client.signed(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled })).status).toBe(200);
    expect(await serialOf(primary, zone)).toBe(before + 2);
    const rows = (text: string) => text.split('\n').filter((l) => l && !l.startsWith(';') && !l.includes('TSIG')).map((l) => l.split(/\s+/).slice(3).join(' '));
    const ixfr = rows(await dig(primary, ['-y', TSIG, zone, `IXFR=${before}`]));
    // AXFR-style (RFC 1995 §4): the zone as it stands, unsigned, not two differences that say nothing of the signatures.
    expect(ixfr.sort()).toEqual(rows(await dig(primary, ['-y', TSIG, zone, 'AXFR'])).sort());
    expect(ixfr).toContain('A 192.0.2.27');
    expect(ixfr.some((r) => /^(DNSKEY|RRSIG|NSEC) /.test(r))).toBe(false);
  });

  it('refuses a transfer without the key, or with a wrong one', async () => {
    expect(await dig(primary, [NSD_ZONE, 'AXFR'])).toMatch(/Transfer failed/);
    expect(await dig(primary, [NSD_ZONE, 'IXFR=1'])).toMatch(/Transfer failed/);
    const wrong = await dig(primary, ['-y', `hmac-sha256:${KEY_NAME}:${Buffer.from('not the secret at all, not at all').toString('base64')}`, NSD_ZONE, 'AXFR']);
    expect(wrong).not.toMatch(/\tSOA\t/);
  });

  it('serves the catalog zone (RFC 9432 version 2) to key holders', async () => {
    const catalog = await dig(primary, ['-y', TSIG, CATALOG, 'AXFR']);
    expect(catalog).toMatch(new RegExp(`version\\.${CATALOG.replaceAll('.', '\\.')}\\.\\s+0\\s+IN\\s+TXT\\s+"2"`));
    expect(catalog).toMatch(new RegExp(`\\.zones\\.${CATALOG.replaceAll('.', '\\.')}\\.\\s+0\\s+IN\\s+PTR\\s+${NSD_ZONE}\\.`));
  });

  // Last: it signs NSD_ZONE, the one zone all three secondaries carry (NSD by name, BIND and Knot from the catalog).
  it('a DNSSEC zone is served signed by each secondary: delv, anchored at the DS from getDnssec, validates their answers before and after a signed change and after a renewal, which moves the serial; turned off, none keeps a DNSKEY', async () => {
    const zone = NSD_ZONE;
    const toggled = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: true });
    expect(toggled.status, JSON.stringify(toggled.body)).toBe(200);
    const read = await client.call('getDnssec', { query: { normalizedDomainName: zone } });
    expect(read.status).toBe(200);
    const ds = (read.body as DnssecState).ds[0];
    const signedSerial = await serialOf(primary, zone);
    const kinds = ['named', 'knotd', 'nsd'] as const;
    // Each has the signed zone once it serves the key the DS names, with the service's serial.
    await Promise.all(kinds.map((kind) => until(servers[kind]!.port, [zone, 'SOA'], (a) => Number(a.split(' ')[2]) === signedSerial)));
    const validated = (text: string) => /; fully validated/.test(text) && !/resolution failed/.test(text);
    for (const kind of kinds) {
      const port = servers[kind]!.port;
      const www = await delv(port, zone, ds, `www.${zone}`, 'A');
      expect(validated(www), `${kind}: ${www}`).toBe(true);
      expect(www).toContain('192.0.2.80');
      expect(www).toMatch(/RRSIG\s+A 13 /);
    }

    const before = signedSerial;
    const created = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: zone, name: 'resigned', type: 'TXT', rdata: '"signed again"', ttl: 60 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const serial = await serialOf(primary, zone);
    expect(serial).toBeGreaterThan(before);
    const times = await Promise.all(kinds.map(async (kind) => [kind, await until(servers[kind]!.port, [`resigned.${zone}`, 'TXT'], (a) => a === '"signed again"')] as const));
    for (const [kind, seconds] of times) console.log(`${kind}: answers the signed change to the DNSSEC zone ${seconds.toFixed(3)} s after it was accepted`);
    for (const [kind, seconds] of times) {
      const port = servers[kind]!.port;
      expect(await serialOf(port, zone)).toBe(serial);
      const fresh = await delv(port, zone, ds, `resigned.${zone}`, 'TXT');
      expect(validated(fresh), `${kind}: ${fresh}`).toBe(true);
      expect(fresh).toContain('"signed again"');
      // The NSEC chain came along too: the name just after the new one is proven absent.
      const absent = await delv(port, zone, ds, `resigned2.${zone}`, 'TXT');
      expect(/; negative response, fully validated/.test(absent), `${kind}: ${absent}`).toBe(true);
      expect(seconds).toBeLessThan(5);
    }
    // IXFR of the signed zone carries only the change: the new set and its RRSIG, the changed NSECs and theirs, the
    // SOA's RRSIGs (old and new), within the SOAs that frame it; no DNSKEY (issue 37 item 4).
    const ixfrText = await dig(primary, ['-y', TSIG, zone, `IXFR=${before}`]);
    console.log(`IXFR of the signed zone after one added record: ${/XFR size: .*/.exec(ixfrText)?.[0]}`);
    const ixfr = ixfrText
      .split('\n')
      .filter((l) => l && !l.startsWith(';') && !l.includes('TSIG'))
      .map((l) => l.split(/\s+/)[3]);
    expect(ixfr.length).toBeLessThanOrEqual(20);
    expect(ixfr.slice(0, 2)).toEqual(['SOA', 'SOA']);
    expect(ixfr).not.toContain('DNSKEY');
    expect(ixfr).toContain('NSEC');
    expect(ixfr).toContain('TXT');
    expect(ixfr.filter((t) => t === 'RRSIG').length).toBeGreaterThanOrEqual(4);
    // Knot took it as an IXFR, and BIND, having applied it, holds what an AXFR of the primary holds (RRSIG bytes too).
    const axfrOf = async (port: number, args: string[] = []) =>
      (await dig(port, [...args, zone, 'AXFR']))
        .split('\n')
        .filter((l) => l && !l.startsWith(';') && !l.includes('TSIG'))
        .map((l) => l.split(/\s+/).join(' ').toLowerCase())
        .sort();
    expect(await axfrOf(servers.named!.port)).toEqual(await axfrOf(primary, ['-y', TSIG]));
    expect(servers.knotd!.log()).toMatch(new RegExp(`\\[${zone.replace('.', '\\.')}\\.\\] IXFR, incoming, remote [^,]+, finished`));

    // Left unchanged for 12 days (its epoch set back, announced as a version): each secondary serves signatures with 2
    // days left. The renewal every instance runs moves the epoch and the serial; each is told, and serves the renewed
    // ones, which delv validates.
    const expirationAt = async (port: number) => (await dig(port, ['+short', '+norec', '+dnssec', `www.${zone}`, 'A'])).split('\n').find((l) => l.startsWith('A 13 '))?.split(' ')[4];
    const digDay = (ms: number) => new Date(ms).toISOString().replace(/\D/g, '').slice(0, 8);
    await service.services.db.query(`UPDATE dnssec_keys SET signing_epoch = now() - interval '12 days' WHERE zone_name = $1`, [zone]);
    // A new version only from a statement carrying the zone-change token (migration 054), as the pipeline's does.
    await service.services.db.query("UPDATE domains SET zone_version = gen_random_uuid() WHERE name = $1 AND set_config('namefi.zone_change', $1, true) = $1", [zone]);
    const aged = await serialOf(primary, zone);
    await Promise.all(kinds.map((kind) => until(servers[kind]!.port, [zone, 'SOA'], (a) => Number(a.split(' ')[2]) === aged)));
    for (const kind of kinds) expect((await expirationAt(servers[kind]!.port))?.slice(0, 8), kind).toBe(digDay(Date.now() + 2 * 86400_000));
    expect(await renewDueSignatures(service.services, new Date())).toContain(zone);
    const renewed = await serialOf(primary, zone);
    expect(renewed).toBe(aged + 1);
    await Promise.all(kinds.map((kind) => until(servers[kind]!.port, [zone, 'SOA'], (a) => Number(a.split(' ')[2]) === renewed)));
    for (const kind of kinds) {
      const port = servers[kind]!.port;
      expect((await expirationAt(port))?.slice(0, 8), kind).toBe(digDay(Date.now() + 14 * 86400_000));
      const www = await delv(port, zone, ds, `www.${zone}`, 'A');
      expect(validated(www), `${kind}: ${www}`).toBe(true);
    }

    // Turned off: each secondary takes the whole unsigned zone (IXFR across the change is AXFR-style) and keeps no DNSKEY.
    expect((await client.signed(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: false })).status).toBe(200);
    const unsigned = await serialOf(primary, zone);
    await Promise.all(kinds.map((kind) => until(servers[kind]!.port, [zone, 'SOA'], (a) => Number(a.split(' ')[2]) === unsigned)));
    for (const kind of kinds) {
      const port = servers[kind]!.port;
      expect(await dig(port, ['+short', '+norec', zone, 'DNSKEY']), kind).toBe('');
      expect(await dig(port, ['+short', '+norec', '+dnssec', `www.${zone}`, 'A']), kind).not.toMatch(/^A 13 /m);
    }
  });

  it('an NSEC3 zone signed with Ed25519 is served by BIND and Knot as catalog members: delv validates their positive and negative answers', async () => {
    const zone = 'nsec3-secondary.com';
    await register(zone, [
      { name: 'www', type: 'A', rdata: '192.0.2.33', ttl: 60 },
      { name: 'x.deep', type: 'TXT', rdata: '"below an empty non-terminal"', ttl: 60 },
    ]);
    const toggled = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: true, algorithm: 15, denial: 'nsec3', nsec3OptOut: false });
    expect(toggled.status, JSON.stringify(toggled.body)).toBe(200);
    const ds = toggled.body.ds[0];
    const serial = await serialOf(primary, zone);
    const kinds = ['named', 'knotd'] as const;
    await Promise.all(kinds.map((kind) => until(servers[kind]!.port, [zone, 'SOA'], (a) => Number(a.split(' ')[2]) === serial)));
    const validated = (text: string) => /; fully validated/.test(text) && !/resolution failed/.test(text);
    const negative = (text: string) => /; negative response, fully validated/.test(text);
    for (const kind of kinds) {
      const port = servers[kind]!.port;
      expect((await dig(port, ['+short', '+norec', zone, 'NSEC3PARAM'])).trim(), kind).toBe('1 0 0 -');
      const [www, nx, nodata, ent] = await Promise.all([
        delv(port, zone, ds, `www.${zone}`, 'A'),
        delv(port, zone, ds, `nope.${zone}`, 'A'),
        delv(port, zone, ds, `www.${zone}`, 'TXT'),
        delv(port, zone, ds, `deep.${zone}`, 'A'),
      ]);
      expect(validated(www), `${kind}: ${www}`).toBe(true);
      expect(www).toMatch(/RRSIG\s+A 15 /);
      for (const [what, text] of [['NXDOMAIN', nx], ['NODATA', nodata], ['empty non-terminal', ent]]) expect(negative(text), `${kind} ${what}: ${text}`).toBe(true);
      // The secondary proves absence with the service's NSEC3 chain (it signs nothing itself).
      expect(await dig(port, ['+norec', '+dnssec', `nope.${zone}`, 'A']), kind).toMatch(/IN\s+NSEC3\s+1 0 0 - [0-9A-V]{32}/);
    }
  });
});
