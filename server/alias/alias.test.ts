/**
 * ALIAS end to end against real name servers: BIND serves the "platform" zone the ALIASes point at and is the
 * service's DNS_RESOLVER; the service flattens, signs and transfers; the same BIND is a secondary of the ALIAS zone.
 * One service and one BIND for the file; BIND stops in the last test (served stale).
 */
import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeResponse, encodeQuery } from '#core/dns/message.ts';
import type { DnssecState } from '#core/wire/dnssec.ts';
import { query } from '../dns-client/client.ts';
import { bindToolsMissing, delv, dig } from '../../test/support/bind.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { nameServersMissing, startNamed, type RunningNameServer } from '../../test/support/name-servers.ts';
import { freePort } from '../../test/support/ports.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

const missing = nameServersMissing(['named']) ?? bindToolsMissing();
if (missing) throw new Error(missing);

const [OWNER_KEY] = TEST_KEYS;
const PLATFORM = 'platform.test';
const SECONDARY_ZONE = 'alias-secondary.com';

let dir: string;
let bind: RunningNameServer;
let service: TestService;
let client: TestClient;
let servicePort: number;
let bindPort: number;

const short = async (port: number, name: string, type: string) =>
  (await dig(port, ['+short', '+norec', '+time=1', name, type]).catch(() => ''))
    .trim()
    .split('\n')
    .filter(Boolean)
    .sort();

/** Asks until `check` passes; answers the seconds it took. */
async function until(port: number, name: string, type: string, check: (answer: string[]) => boolean, limitMs = 15_000): Promise<number> {
  const started = performance.now();
  let last: string[] = [];
  while (performance.now() - started < limitMs) {
    last = await short(port, name, type);
    if (check(last)) return (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`port ${port} still answers ${JSON.stringify(last)} to ${name} ${type}`);
}
const sameAs = (expected: string[]) => (answer: string[]) => JSON.stringify(answer) === JSON.stringify(expected);

async function nsupdate(commands: string): Promise<void> {
  const child = promisify(execFile)('nsupdate', ['-v'], { encoding: 'utf8' });
  child.child.stdin?.end(`server 127.0.0.1 ${bindPort}\nzone ${PLATFORM}\n${commands}\nsend\n`);
  await child;
}

async function register(zone: string, records: Array<{ name: string; type: string; rdata: string; ttl: number }>) {
  await service.services.ownership.mint({ name: zone, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
  if (records.length === 0) return;
  const reply = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: zone, records });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/** One query over UDP from this process, timed: the answer's latency without a dig process around it. */
function timedQuery(name: string, type: 'A' | 'AAAA'): Promise<{ ms: number; addresses: string[] }> {
  return new Promise((done, fail) => {
    const socket = createSocket('udp4');
    const started = performance.now();
    socket.once('message', (message) => {
      const ms = performance.now() - started;
      socket.close();
      done({ ms, addresses: decodeResponse(message).answers.map((a) => a.rdata) });
    });
    socket.once('error', fail);
    socket.send(encodeQuery(name, type, Math.floor(Math.random() * 65535)), servicePort, '127.0.0.1');
  });
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'namefi-alias-'));
  [servicePort, bindPort] = [await freePort(), await freePort()];
  writeFileSync(
    join(dir, 'platform.db'),
    [
      `$ORIGIN ${PLATFORM}.`,
      '$TTL 5',
      `@ IN SOA ns1.${PLATFORM}. hostmaster.${PLATFORM}. 1 60 60 600 5`,
      `@ IN NS ns1.${PLATFORM}.`,
      'ns1 IN A 127.0.0.1',
      'app IN A 203.0.113.10',
      'app IN A 203.0.113.11',
      'app IN AAAA 2001:db8::10',
      'edge IN CNAME app',
      'v4only IN A 198.51.100.4',
      '',
    ].join('\n'),
  );
  bind = await startNamed(
    join(dir, 'named'),
    bindPort,
    `zone "${PLATFORM}" { type primary; file "${join(dir, 'platform.db')}"; allow-update { 127.0.0.1; }; };\n` +
      `zone "${SECONDARY_ZONE}" { type secondary; primaries { 127.0.0.1 port ${servicePort}; }; file "secondary.db"; };`,
    PLATFORM,
    'notify no; allow-transfer { none; }; min-refresh-time 1; min-retry-time 1;',
  );
  service = await startTestService({
    DNS_PORT: String(servicePort),
    DNS_RESOLVER: `127.0.0.1:${bindPort}`,
    DNS_ALSO_NOTIFY: `127.0.0.1:${bindPort}`,
    DNS_AXFR_ALLOW: '127.0.0.1',
    ALIAS_REFRESH_MS: '200',
    ALIAS_MIN_CACHE_SECONDS: '1',
  });
  client = testClient(service);
}, 60_000);

afterAll(async () => {
  await bind?.stop();
  await service?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('ALIAS records, flattened by the service', () => {
  it('an ALIAS at the apex answers the A and AAAA that BIND serves for its target, beside the apex MX; measured cached and uncached', async () => {
    const zone = 'alias-apex.com';
    await register(zone, [{ name: '@', type: 'MX', rdata: `10 mail.${zone}.`, ttl: 300 }]);
    const fromBind = { A: await short(bindPort, `app.${PLATFORM}`, 'A'), AAAA: await short(bindPort, `app.${PLATFORM}`, 'AAAA') };
    expect(fromBind.A).toEqual(['203.0.113.10', '203.0.113.11']);
    const started = performance.now();
    const created = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: zone, type: 'ALIAS', name: '@', rdata: `app.${PLATFORM}`, ttl: 120 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ type: 'ALIAS', name: '@', rdata: `app.${PLATFORM}.` });
    const written = performance.now();
    // Polled from this process (a dig process costs more than the wait itself on a loaded machine).
    while ((await timedQuery(zone, 'A')).addresses.length === 0) await new Promise((r) => setTimeout(r, 2));
    const uncachedMs = performance.now() - started;
    expect(await short(servicePort, zone, 'A')).toEqual(fromBind.A);
    expect(await short(servicePort, zone, 'AAAA')).toEqual(fromBind.AAAA);
    expect(await short(servicePort, zone, 'MX')).toEqual([`10 mail.${zone}.`]);
    // The ALIAS itself is never answered: its type is nobody's but ours.
    expect(await short(servicePort, zone, 'TYPE65401')).toEqual([]);
    const answer = await dig(servicePort, ['+norec', zone, 'A']);
    expect(answer).toMatch(new RegExp(`${zone.replace('.', '\\.')}\\.\\s+120\\s+IN\\s+A\\s+203\\.0\\.113\\.10`));

    // Uncached: the first answer with addresses, counted from the signed write (resolving through BIND, the zone change,
    // the reload); a resolution alone, from the refresher's resolver, timed too. Cached: UDP queries answered from memory.
    const bindServer = { host: '127.0.0.1', port: bindPort };
    const resolverMs: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const t = performance.now();
      await Promise.all([query(bindServer, `app.${PLATFORM}`, 'A', { timeoutMs: 1500 }), query(bindServer, `app.${PLATFORM}`, 'AAAA', { timeoutMs: 1500 })]);
      resolverMs.push(performance.now() - t);
    }
    const cached: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const { ms, addresses } = await timedQuery(zone, 'A');
      expect(addresses.sort()).toEqual(fromBind.A);
      cached.push(ms);
    }
    console.log(
      `ALIAS latency: uncached (signed write sent → first flattened answer) ${uncachedMs.toFixed(1)} ms, of which ${(started + uncachedMs - written).toFixed(1)} ms after the write's answer (resolve, zone change, reload); ` +
        `cached answer median ${median(cached).toFixed(3)} ms, p95 ${[...cached].sort((a, b) => a - b)[189].toFixed(3)} ms over 200 UDP queries; ` +
        `resolving the target's A and AAAA at BIND as the refresher does, median ${median(resolverMs).toFixed(2)} ms`,
    );
  }, 60_000);

  it('follows a CNAME at the target, answers only A when the target has only A, and follows a target among its own zones', async () => {
    const zone = 'alias-more.com';
    await register('own-target.com', [{ name: 'www', type: 'A', rdata: '192.0.2.44', ttl: 60 }]);
    await register(zone, [
      { name: 'edge', type: 'ALIAS', rdata: `edge.${PLATFORM}.`, ttl: 60 },
      { name: 'four', type: 'ALIAS', rdata: `v4only.${PLATFORM}.`, ttl: 60 },
      { name: 'own', type: 'ALIAS', rdata: 'www.own-target.com.', ttl: 60 },
    ]);
    await until(servicePort, `edge.${zone}`, 'A', sameAs(['203.0.113.10', '203.0.113.11']));
    await until(servicePort, `four.${zone}`, 'A', sameAs(['198.51.100.4']));
    expect(await short(servicePort, `four.${zone}`, 'AAAA')).toEqual([]);
    await until(servicePort, `own.${zone}`, 'A', sameAs(['192.0.2.44']));
    const [record] = (await client.call<Array<{ id: string; name: string }>>('getDnsRecords', { query: { zoneName: 'own-target.com' } })).body.filter((r) => r.name === 'www');
    const updated = await client.signed(OWNER_KEY, 'updateDnsRecord', { zoneName: 'own-target.com', id: record.id, name: 'www', type: 'A', rdata: '192.0.2.45', ttl: 60 });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const seconds = await until(servicePort, `own.${zone}`, 'A', sameAs(['192.0.2.45']));
    console.log(`ALIAS to a zone of the service: followed its change in ${seconds.toFixed(2)} s`);
  });

  it('refuses an ALIAS beside an A, an A beside an ALIAS, a CNAME beside it, its own name and a loop, each at its field with the rule named; nothing is written', async () => {
    const zone = 'alias-bad.com';
    await register(zone, [
      { name: 'web', type: 'A', rdata: '192.0.2.1', ttl: 60 },
      { name: 'site', type: 'ALIAS', rdata: `app.${PLATFORM}.`, ttl: 60 },
      { name: 'a', type: 'ALIAS', rdata: `b.${zone}.`, ttl: 60 },
    ]);
    const serial = (await dig(servicePort, ['+short', zone, 'SOA'])).trim().split(' ')[2];
    const refused = async (input: Record<string, unknown>, rule: string, field: string) => {
      const reply = await client.signed<{ data: { rule: string; fieldErrors: Record<string, string[]> } }>(OWNER_KEY, 'createDnsRecord', { zoneName: zone, ttl: 60, ...input });
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(reply.body.data.rule).toBe(rule);
      expect(Object.keys(reply.body.data.fieldErrors)).toEqual([field]);
      return reply.body.data.fieldErrors[field][0];
    };
    expect(await refused({ type: 'ALIAS', name: 'web', rdata: `app.${PLATFORM}` }, 'DNS_ALIAS_CONFLICT', 'name')).toContain('cannot stand beside a CNAME, A or AAAA');
    expect(await refused({ type: 'A', name: 'site', rdata: '192.0.2.9' }, 'DNS_ALIAS_CONFLICT', 'name')).toContain('has an ALIAS');
    expect(await refused({ type: 'CNAME', name: 'site', rdata: 'x.example.net.' }, 'DNS_ALIAS_CONFLICT', 'name')).toContain('has an ALIAS');
    expect(await refused({ type: 'ALIAS', name: 'self', rdata: `self.${zone}.` }, 'DNS_ALIAS_LOOP', 'rdata')).toContain('itself');
    expect(await refused({ type: 'ALIAS', name: 'b', rdata: `a.${zone}.` }, 'DNS_ALIAS_LOOP', 'rdata')).toContain(`b.${zone} → a.${zone} → b.${zone}`);
    expect(await refused({ type: 'CNAME', name: 'b', rdata: `a.${zone}.` }, 'DNS_ALIAS_LOOP', 'rdata')).toContain('loop');
    expect((await dig(servicePort, ['+short', zone, 'SOA'])).trim().split(' ')[2]).toBe(serial);
  });

  it('transfers the flattened addresses (AXFR and IXFR): BIND as a secondary serves them and follows a change of the target; signed answers validate', async () => {
    await register(SECONDARY_ZONE, [
      { name: '@', type: 'ALIAS', rdata: `app.${PLATFORM}.`, ttl: 60 },
      { name: 'www', type: 'CNAME', rdata: `${SECONDARY_ZONE}.`, ttl: 60 },
    ]);
    await until(servicePort, SECONDARY_ZONE, 'A', sameAs(['203.0.113.10', '203.0.113.11']));
    const axfr = await dig(servicePort, ['+nocookie', SECONDARY_ZONE, 'AXFR']);
    expect(axfr).toMatch(/\sA\s+203\.0\.113\.10/);
    expect(axfr).toMatch(/\sAAAA\s+2001:db8::10/);
    expect(axfr).not.toMatch(/TYPE65401|ALIAS/);
    await until(bindPort, SECONDARY_ZONE, 'A', sameAs(['203.0.113.10', '203.0.113.11']));

    const serialBefore = Number((await dig(servicePort, ['+short', SECONDARY_ZONE, 'SOA'])).trim().split(' ')[2]);
    const changed = performance.now();
    await nsupdate('update delete app.platform.test. A 203.0.113.11\nupdate add app.platform.test. 5 A 203.0.113.12');
    await until(servicePort, SECONDARY_ZONE, 'A', sameAs(['203.0.113.10', '203.0.113.12']));
    await until(bindPort, SECONDARY_ZONE, 'A', sameAs(['203.0.113.10', '203.0.113.12']));
    console.log(`ALIAS target changed at BIND: the secondary serves the new addresses ${((performance.now() - changed) / 1000).toFixed(2)} s later`);
    const serialAfter = Number((await dig(servicePort, ['+short', SECONDARY_ZONE, 'SOA'])).trim().split(' ')[2]);
    expect(serialAfter).toBe(serialBefore + 1);
    // The change is the service's, in the zone's history, with its words.
    const [entry] = await service.services.db.query<{ operation: string; entry: string }>('SELECT operation, entry FROM zone_history WHERE zone_name = $1 ORDER BY serial DESC LIMIT 1', [SECONDARY_ZONE]);
    expect(entry.operation).toBe('flattenAlias');
    expect(JSON.parse(entry.entry).actor).toMatchObject({ via: 'service' });
    expect(JSON.parse(entry.entry).changes.map((c: { op: string; before: { rdata: string } | null; after: { rdata: string } | null }) => `${c.op} ${(c.after ?? c.before)?.rdata}`)).toEqual(['delete 203.0.113.11', 'create 203.0.113.12']);

    // Signed: the flattened addresses are signed like any record, and delv validates them with the DS as anchor.
    const signed = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: SECONDARY_ZONE, enabled: true });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    for (const type of ['A', 'AAAA']) {
      const validated = await delv(servicePort, SECONDARY_ZONE, signed.body.ds[0], SECONDARY_ZONE, type);
      expect(validated, validated).toMatch(/; fully validated/);
      expect(validated).toContain(type === 'A' ? '203.0.113.12' : '2001:db8::10');
    }
    const viaCname = await delv(servicePort, SECONDARY_ZONE, signed.body.ds[0], `www.${SECONDARY_ZONE}`, 'A');
    expect(viaCname, viaCname).toMatch(/; fully validated/);
  });

  it('deleting the ALIAS takes its addresses with it in the same change', async () => {
    const zone = 'alias-gone.com';
    await register(zone, [{ name: 'shop', type: 'ALIAS', rdata: `app.${PLATFORM}.`, ttl: 60 }]);
    await until(servicePort, `shop.${zone}`, 'A', (a) => a.length === 2);
    const [alias] = (await client.call<Array<{ id: string; type: string }>>('getDnsRecords', { query: { zoneName: zone } })).body.filter((r) => r.type === 'ALIAS');
    expect((await client.signed(OWNER_KEY, 'deleteDnsRecord', { zoneName: zone, id: alias.id })).status).toBe(200);
    expect(await short(servicePort, `shop.${zone}`, 'A')).toEqual([]);
    const [entry] = await service.services.db.query<{ entry: string }>('SELECT entry FROM zone_history WHERE zone_name = $1 ORDER BY serial DESC LIMIT 1', [zone]);
    expect(JSON.parse(entry.entry).changes.map((c: { op: string; before: { type: string } }) => `${c.op} ${c.before.type}`).sort()).toEqual(['delete A', 'delete A', 'delete AAAA', 'delete ALIAS']);
  });

  it('serves the last addresses stale (RFC 8767) while the target cannot be resolved', async () => {
    const zone = 'alias-apex.com';
    const before = await short(servicePort, zone, 'A');
    expect(before.length).toBeGreaterThan(0);
    await bind.stop();
    // Past the least cache time (1 s here) and several refresher rounds: the resolver refuses, the addresses stay.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await short(servicePort, zone, 'A')).toEqual(before);
    expect(await short(servicePort, zone, 'AAAA')).toEqual(['2001:db8::10']);
  });
});
