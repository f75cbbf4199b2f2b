/**
 * `npm run bench:update`: DNS UPDATE (RFC 2136, TSIG) through the zone-change pipeline beside the REST write it
 * shares that pipeline with: changes per second (one client waiting for each answer, and eight at once), whether the
 * answering instance serves the change when the answer arrives, and the time from a NOERROR (or a 200) to a BIND 9
 * secondary (NOTIFY, then IXFR) and to a second instance on the same PostgreSQL answering it (the contract: every
 * instance within 1 s). An UPDATE answers only once this instance serves the change (the
 * contract), a REST write at once; so the REST write is measured also followed by a query until it is served
 * (REST+served), the same work. Each change adds one TXT record to one zone. Both instances run on a throwaway
 * PostgreSQL server (test/support/postgres-server.ts). Needs Debian's bind9 and postgresql; not part of `npm test`.
 */
import * as dnsPacket from 'dns-packet';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { startService } from '../server/service.ts';
import { addressOf, TEST_KEYS, testClient } from '../test/support/client.ts';
import { rcodeOf, sendUdp, signed, updateMessage, type TsigForm } from '../test/support/dns-update.ts';
import { nameServersMissing, startNamed } from '../test/support/name-servers.ts';
import { freePort } from '../test/support/ports.ts';
import { startPostgres } from '../test/support/postgres-server.ts';

const CHANGES = Number(process.env.BENCH_UPDATE_CHANGES ?? 200);
const PROPAGATIONS = Number(process.env.BENCH_UPDATE_PROPAGATIONS ?? 10);
const CONCURRENCY = 8;
const GOALS = { ratio: 0.8, secondaryMs: 1000, instanceMs: 1000 };
const missing = nameServersMissing(['named']);
if (missing) {
  console.error(missing);
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'namefi-bench-update-'));
const zone = 'bench-update.com';
const XFR = { name: 'bench-xfr', secret: Buffer.from('bench secret of thirty-two bytes').toString('base64') };
const [owner] = TEST_KEYS;
const secondaryPort = await freePort();
const postgres = await startPostgres();
const service = await startService(
  loadConfig({
    PORT: '0',
    DATA_DIR: join(dir, 'service'),
    DATABASE_URL: postgres.url,
    DNS_PORT: '0',
    LOG_REQUESTS: 'false',
    RATE_LIMIT_PER_MINUTE: '100000000',
    DNS_TSIG_KEYS: `${XFR.name}:hmac-sha256:${XFR.secret}`,
    DNS_ALSO_NOTIFY: `127.0.0.1:${secondaryPort}`,
  }),
);
const port = service.dns!.port;
/** A second instance on the same database: it hears of each change through the database's announcements. */
const other = await startService(loadConfig({ PORT: '0', DATA_DIR: join(dir, 'other'), DATABASE_URL: postgres.url, DNS_PORT: '0', LOG_REQUESTS: 'false' }));
const otherPort = other.dns!.port;
const txt = (text: string) => Buffer.concat([Buffer.from([text.length]), Buffer.from(text)]);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The TXT strings a server answers at `name`, asked over UDP (no process per question: polling stays fine-grained). */
async function texts(serverPort: number, name: string): Promise<string[]> {
  const answer = await sendUdp(serverPort, dnsPacket.encode({ id: 1, type: 'query', questions: [{ name, type: 'TXT' }] }), 500).catch(() => null);
  if (!answer) return [];
  return (dnsPacket.decode(answer).answers ?? []).flatMap((a) => (a.type === 'TXT' ? [(a.data as Buffer[]).map((b) => b.toString()).join('')] : []));
}

async function until(serverPort: number, name: string, text: string, limitMs = 10_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if ((await texts(serverPort, name)).includes(text)) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 2));
  }
  return Number.NaN;
}

try {
  await service.services.ownership.mint({ name: zone, to: addressOf(owner), chainId: 31337, years: 1, now: new Date() });
  const client = testClient(service);
  await client.signed(owner, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false });
  const token = await client.signIn(owner);
  const scope = { zones: [zone], names: [], types: [], access: 'write', expiresAt: null, cidrs: [] };
  const created = await client.call('createApiKey', { body: { label: 'bench', scope, tsig: true }, headers: client.withToken(token) });
  const key = created.body.key as string;
  const tsig = created.body.tsig as TsigForm;

  let n = 0;
  /** One change through each door: answers its name and text once the door said yes. */
  const doors = {
    async update() {
      const [name, text] = [`u${(n += 1)}`, `update ${n}`];
      const answer = await sendUdp(port, signed(updateMessage(zone, [], [{ name: `${name}.${zone}`, type: 16, klass: 1, ttl: 60, data: txt(text) }], n & 0xffff), tsig), 10_000);
      if (rcodeOf(answer) !== 0) throw new Error(`UPDATE answered rcode ${rcodeOf(answer)}`);
      return { name, text };
    },
    async rest() {
      const [name, text] = [`r${(n += 1)}`, `rest ${n}`];
      const reply = await client.call('createDnsRecord', { body: { zoneName: zone, name, type: 'TXT', rdata: `"${text}"`, ttl: 60 }, headers: client.withApiKey(key) });
      if (reply.status !== 200) throw new Error(`REST write answered ${reply.status}: ${JSON.stringify(reply.body)}`);
      return { name, text };
    },
    /** The REST write and then a query until this instance serves it: the work an UPDATE does before its NOERROR. */
    async restServed() {
      const change = await doors.rest();
      await until(port, `${change.name}.${zone}`, change.text);
      return change;
    },
  };

  async function rate(door: keyof typeof doors, concurrency: number): Promise<number> {
    const started = performance.now();
    let left = CHANGES;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await doors[door]();
    }));
    return CHANGES / ((performance.now() - started) / 1000);
  }
  // Warm both paths (the first change of each compiles and caches what the rest reuse).
  for (let i = 0; i < 10; i += 1) await Promise.all([doors.update(), doors.rest()]);
  const rates = {
    update1: await rate('update', 1),
    rest1: await rate('rest', 1),
    restServed1: await rate('restServed', 1),
    update8: await rate('update', CONCURRENCY),
    rest8: await rate('rest', CONCURRENCY),
    restServed8: await rate('restServed', CONCURRENCY),
  };

  const bind = await startNamed(
    join(dir, 'named'),
    secondaryPort,
    `key "${XFR.name}" { algorithm hmac-sha256; secret "${XFR.secret}"; };\nzone "${zone}" { type secondary; primaries { 127.0.0.1 port ${port} key "${XFR.name}"; }; file "zone.db"; allow-notify { 127.0.0.1; }; };`,
    zone,
  );
  try {
    const propagation: Record<'update' | 'rest', { own: number[]; bind: number[]; other: number[] }> = {
      update: { own: [], bind: [], other: [] },
      rest: { own: [], bind: [], other: [] },
    };
    for (let i = 0; i < PROPAGATIONS; i += 1) {
      for (const door of ['update', 'rest'] as const) {
        const { name, text } = await doors[door]();
        const fqdn = `${name}.${zone}`;
        const [own, secondary, instance] = await Promise.all([texts(port, fqdn).then((found) => found.includes(text)), until(bind.port, fqdn, text), until(otherPort, fqdn, text)]);
        propagation[door].own.push(own ? 1 : 0);
        propagation[door].bind.push(secondary);
        propagation[door].other.push(instance);
        // A quiet moment between changes: BIND takes a NOTIFY that arrives while it finishes a transfer only ~0.4 s later,
        // which would be measured as the next change's delay, whichever door made it.
        await new Promise((r) => setTimeout(r, 300));
      }
    }
    const rows = [
      ['', 'DNS UPDATE', 'REST write', 'REST+served', 'goal'],
      ['changes/s, one client', rates.update1.toFixed(0), rates.rest1.toFixed(0), rates.restServed1.toFixed(0), `UPDATE ≥ ${GOALS.ratio}× REST+served`],
      [`changes/s, ${CONCURRENCY} clients`, rates.update8.toFixed(0), rates.rest8.toFixed(0), rates.restServed8.toFixed(0), `UPDATE ≥ ${GOALS.ratio}× REST+served`],
      ['first query after the answer shows it', `${sum(propagation.update.own)}/${PROPAGATIONS}`, `${sum(propagation.rest.own)}/${PROPAGATIONS}`, '', `UPDATE: ${PROPAGATIONS}/${PROPAGATIONS}`],
      ['answer → the other instance serves it, median ms', median(propagation.update.other).toFixed(0), median(propagation.rest.other).toFixed(0), '', `< ${GOALS.instanceMs}`],
      ['answer → the other instance serves it, slowest ms', Math.max(...propagation.update.other).toFixed(0), Math.max(...propagation.rest.other).toFixed(0), '', `< ${GOALS.instanceMs}`],
      ['answer → BIND secondary serves it, median ms', median(propagation.update.bind).toFixed(0), median(propagation.rest.bind).toFixed(0), '', `< ${GOALS.secondaryMs}`],
      ['answer → BIND secondary serves it, slowest ms', Math.max(...propagation.update.bind).toFixed(0), Math.max(...propagation.rest.bind).toFixed(0), '', `< ${GOALS.secondaryMs}`],
    ];
    console.log(`DNS UPDATE and the REST write, ${CHANGES} changes per rate, ${PROPAGATIONS} propagations each (one TXT record added per change)`);
    for (const row of rows) console.log(`  ${row[0].padEnd(48)}${row[1].padStart(12)}${row[2].padStart(12)}${row[3].padStart(13)}   ${row[4]}`);
    const verdicts = [
      rates.update1 >= GOALS.ratio * rates.restServed1 && rates.update8 >= GOALS.ratio * rates.restServed8
        ? 'UPDATE keeps pace with a REST write followed by its first answer (the work an UPDATE does before its NOERROR)'
        : 'UPDATE is slower than a REST write followed by its first answer',
      sum(propagation.update.own) === PROPAGATIONS ? 'UPDATE: this instance served each change when its NOERROR arrived' : 'UPDATE: a change was answered before this instance served it',
      Math.max(...propagation.update.other, ...propagation.rest.other) < GOALS.instanceMs ? 'The other instance served every change within the goal' : 'The other instance was slower than the goal (or missed a change)',
      Math.max(...propagation.update.bind) < GOALS.secondaryMs ? 'BIND served every change within the goal' : 'BIND was slower than the goal',
    ];
    for (const verdict of verdicts) console.log(`  ${verdict}`);
  } finally {
    await bind.stop();
  }
} finally {
  await other.close();
  await service.close();
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}
