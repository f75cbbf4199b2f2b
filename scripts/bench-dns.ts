/**
 * `npm run bench:dns`: queries per second over UDP that the local service's DNS server answers, measured with
 * dnsperf, beside BIND 9 (`named -n 1`), Knot DNS (one UDP worker) and NSD (one server process) serving the same
 * zone (taken from the service by AXFR), with the same queries, in one run so the ratios compare like with like on a
 * shared machine; then the service again with response-rate limiting on (DNS_RRL_PER_SECOND), from one client
 * address, as a flood would see it; then the cost of query analytics: the service with counting off
 * (ANALYTICS_ENABLED=false) and on, measured alternately (off, on, on, off, …) in the same run; then the cost of DNS
 * cookies: the same queries without and with a client cookie (each answered with a server cookie), alternately, on
 * one service. Each cost is the median over pairs of neighbouring runs, of the CPU the service spent per answer (the
 * goal's verdict: its own cost) and of the rate dnsperf saw. The service answers UDP
 * from DNS_UDP_THREADS threads (its default unless set) and, for comparison, from the main thread alone. Needs Debian's dnsperf,
 * bind9, knot and nsd; not part of `npm test`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { startService } from '../server/service.ts';
import { dig } from '../test/support/bind.ts';
import { addressOf, TEST_KEYS, testClient } from '../test/support/client.ts';
import { NAME_SERVER_BINARIES, nameServersMissing, startKnot, startNamed, startNsd, type RunningNameServer } from '../test/support/name-servers.ts';
import { freePort } from '../test/support/ports.ts';

const SECONDS = Number(process.env.BENCH_DNS_SECONDS ?? 10);
/** Each of the 8 alternating runs that measure query analytics' cost. */
const COUNTING_SECONDS = Math.max(3, Math.round(SECONDS / 2));
/**
 * The cookies' alternating runs: many short pairs (the same service throughout). On this 2-core VM the machine's speed
 * steps by up to 2× for a few seconds at a time: a one-second pair mostly falls within one speed, and the median of 30
 * outlasts the pairs a step spoils (8 pairs of 3 s read −8.6% to +11.4% on one build). Pinning the service and dnsperf
 * to a core each was tried and swung more (one core for the main thread and two UDP threads).
 */
const COOKIE_PAIRS = Number(process.env.BENCH_DNS_COOKIE_PAIRS ?? 30);
const COOKIE_SECONDS = Number(process.env.BENCH_DNS_COOKIE_SECONDS ?? 1);
const RRL_PER_SECOND = Number(process.env.BENCH_DNS_RRL ?? 20);
/** BENCH_DNS_ONLY=cookies: the cookies' on/off runs alone (~1 minute), to judge a change to the cookie path. */
const COOKIES_ONLY = process.env.BENCH_DNS_ONLY === 'cookies';
const missing = nameServersMissing(['named', 'knotd', 'nsd', 'dnsperf']);
if (missing) {
  console.error(missing);
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'namefi-bench-dns-'));
const zone = 'bench-dns.com';
const RECORDS = [
  { name: '@', type: 'A', rdata: '192.0.2.1', ttl: 300 },
  { name: '@', type: 'MX', rdata: `10 mail.${zone}.`, ttl: 300 },
  { name: 'www', type: 'CNAME', rdata: `${zone}.`, ttl: 300 },
  { name: '*', type: 'A', rdata: '192.0.2.99', ttl: 300 },
  ...Array.from({ length: 200 }, (_, i) => ({ name: `host${i}`, type: 'A', rdata: `198.51.100.${i % 250}`, ttl: 300 })),
  ...Array.from({ length: 50 }, (_, i) => ({ name: `host${i}`, type: 'TXT', rdata: `"record ${i}"`, ttl: 300 })),
];
// A mix of what resolvers ask: existing names, a CNAME, a wildcard.
const QUERIES = [`${zone} A`, `${zone} MX`, `www.${zone} A`, `nothing-here.${zone} A`, ...Array.from({ length: 50 }, (_, i) => `host${i}.${zone} ${i % 2 ? 'TXT' : 'A'}`)];

const THREADS = process.env.DNS_UDP_THREADS;

async function serviceWithZone(rrl: number, dataDir: string, counting = true, threads = THREADS) {
  const service = await startService(
    loadConfig({
      PORT: '0',
      DATA_DIR: dataDir,
      DNS_PORT: '0',
      LOG_REQUESTS: 'false',
      RATE_LIMIT_PER_MINUTE: '1000000',
      DNS_RRL_PER_SECOND: String(rrl),
      ANALYTICS_ENABLED: String(counting),
      DNS_UDP_THREADS: threads,
    }),
  );
  const [key] = TEST_KEYS;
  await service.services.ownership.mint({ name: zone, to: addressOf(key), chainId: 31337, years: 1, now: new Date() });
  const client = testClient(service);
  await client.signed(key, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false });
  const created = await client.signed(key, 'batchCreateDnsRecords', { zoneName: zone, records: RECORDS });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  return service;
}

/**
 * EDNS on both sides of the cookie comparison (`-e`), and on one a client cookie (RFC 7873) with every query (`-E
 * 10:hex`), which each answer returns with a server cookie: the difference is the cookie alone, not EDNS's OPT.
 */
const WITHOUT_COOKIE = ['-e'];
const CLIENT_COOKIE = ['-e', '-E', '10:0123456789abcdef'];

// Asynchronous: the service answers from this very process, so its event loop must stay free.
async function perf(port: number, seconds = SECONDS, extra: string[] = []) {
  const run = await promisify(execFile)(
    NAME_SERVER_BINARIES.dnsperf.path,
    ['-s', '127.0.0.1', '-p', String(port), '-d', join(dir, 'queries.txt'), '-l', String(seconds), '-c', '4', '-q', '100', '-t', '1', ...extra],
    { encoding: 'utf8' },
  );
  const qps = Number(/Queries per second:\s+([0-9.]+)/.exec(run.stdout)?.[1]);
  const lost = Number(/Queries lost:\s+([0-9]+)/.exec(run.stdout)?.[1]);
  if (!Number.isFinite(qps)) throw new Error(`dnsperf failed:\n${run.stdout}${run.stderr}`);
  return { qps, lost, out: run.stdout };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2;
};

/** One run of a side: the rate dnsperf saw, and this process's CPU per answer (the service and its UDP threads). */
interface Side {
  qps: number;
  cpuUs: number;
}

/** dnsperf against the service in this process, with the CPU the process spent meanwhile, per answered query. */
async function perfWithCpu(port: number, seconds: number, extra: string[] = []): Promise<Side> {
  const before = process.cpuUsage();
  const run = await perf(port, seconds, extra);
  const used = process.cpuUsage(before);
  const completed = Number(/Queries completed:\s+([0-9]+)/.exec(run.out)?.[1]);
  return { qps: run.qps, cpuUs: (used.user + used.system) / completed };
}

/**
 * Measures one thing off and on in pairs, off-on then on-off in turn (off, on, on, off, …), each run compared with
 * its neighbour of the other side, and the median of the pairs' ratios is the cost: a step in the machine's speed
 * then spoils one pair, not a side's median (a run where the last three of eight were 30% slower, two of them on,
 * read as 9.9% with medians per side). Two ratios per pair: the rate dnsperf saw, and the CPU the service spent per
 * answer. The rate is what a client gets, but on two cores dnsperf shares them with the service (and with whatever
 * else runs), so a few percent of it move with the load; the CPU per answer is the service's own cost, and stable.
 */
async function alternate(pairs: number, measure: (side: 'off' | 'on', i: number) => Promise<Side>) {
  const order = Array.from({ length: pairs }, (_, p) => (p % 2 === 0 ? ['off', 'on'] : ['on', 'off']) as Array<'off' | 'on'>).flat();
  const runs: Side[] = [];
  for (const [i, side] of order.entries()) runs.push(await measure(side, i));
  const pairOf = (p: number) => (order[2 * p] === 'off' ? [runs[2 * p], runs[2 * p + 1]] : [runs[2 * p + 1], runs[2 * p]]);
  const rateCosts = Array.from({ length: pairs }, (_, p) => {
    const [off, on] = pairOf(p);
    return (off.qps - on.qps) / off.qps;
  });
  const cpuCosts = Array.from({ length: pairs }, (_, p) => {
    const [off, on] = pairOf(p);
    return (on.cpuUs - off.cpuUs) / off.cpuUs;
  });
  const side = (which: 'off' | 'on', of: (r: Side) => number) => median(runs.filter((_, i) => order[i] === which).map(of));
  return {
    order,
    runs,
    rateCosts,
    cpuCosts,
    rateCost: median(rateCosts),
    cpuCost: median(cpuCosts),
    off: { qps: side('off', (r) => r.qps), cpuUs: side('off', (r) => r.cpuUs) },
    on: { qps: side('on', (r) => r.qps), cpuUs: side('on', (r) => r.cpuUs) },
  };
}

function report(what: string, cause: string, m: Awaited<ReturnType<typeof alternate>>) {
  const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `  ${what}, ${m.runs.length} runs (${m.order.join(', ')}: ${m.runs.map((r) => r.qps.toFixed(0)).join(', ')} q/s; ${m.runs.map((r) => r.cpuUs.toFixed(2)).join(', ')} µs of CPU per answer)\n` +
      `    ${cause} costs, pair by pair: ${m.cpuCosts.map(percent).join(', ')} of CPU per answer, median ${percent(m.cpuCost)} (goal: at most 5%: ${m.cpuCost <= 0.05 ? 'met' : 'NOT met'}); ` +
      `${m.rateCosts.map(percent).join(', ')} of the rate, median ${percent(m.rateCost)} (goal: at most 5%: ${m.rateCost <= 0.05 ? 'met' : 'NOT met'})\n` +
      `    medians per side: off ${m.off.qps.toFixed(0)} q/s, ${m.off.cpuUs.toFixed(2)} µs per answer; on ${m.on.qps.toFixed(0)} q/s, ${m.on.cpuUs.toFixed(2)} µs per answer`,
  );
}

const servers: RunningNameServer[] = [];
let service: Awaited<ReturnType<typeof serviceWithZone>> | null = COOKIES_ONLY ? null : await serviceWithZone(0, join(dir, 'service'));
/** Closes the service in use, once (the finally below closes whichever is still open). */
const closeService = async () => {
  const open = service;
  service = null;
  await open?.close();
};
/** The rates beside BIND, Knot and NSD, RRL's and counting's cost: measured now, printed by the function answered. */
async function comparisons() {
  if (!service) throw new Error('no service');
  const dnsPort = service.dns?.port as number;
  // AXFR ends with the SOA again: a zone file holds it once.
  const transfer = (await dig(dnsPort, [zone, 'AXFR'])).split('\n').filter((l) => l && !l.startsWith(';')).slice(0, -1).join('\n');
  // Written before start: each server loads its zone file once.
  const start = async (kind: 'named' | 'knotd' | 'nsd') => {
    const sub = join(dir, kind);
    const port = await freePort();
    const path = join(sub, 'zone.db');
    mkdirSync(sub, { recursive: true });
    writeFileSync(path, `${transfer}\n`);
    if (kind === 'named') return startNamed(sub, port, `zone "${zone}" { type primary; file "${path}"; };`, zone);
    if (kind === 'knotd') return startKnot(sub, port, `zone:\n  - domain: ${zone}\n    file: "${path}"\n    zonefile-sync: -1\n    journal-content: none\n`, zone);
    return startNsd(sub, port, `zone:\n    name: ${zone}\n    zonefile: "${path}"\n`, zone);
  };
  const results: Array<[string, Awaited<ReturnType<typeof perf>>]> = [];
  results.push(['local service', await perf(dnsPort)]);
  for (const [label, kind] of [['BIND 9 named -n 1', 'named'], ['Knot DNS, 1 UDP worker', 'knotd'], ['NSD, server-count 1', 'nsd']] as const) {
    const server = await start(kind);
    servers.push(server);
    results.push([label, await perf(server.port)]);
    await server.stop();
    servers.pop();
  }
  await closeService();
  // The same service with UDP on the main thread alone (DNS_UDP_THREADS=0): what the threads add.
  service = await serviceWithZone(0, join(dir, 'service-main-thread'), true, '0');
  results.push(['service, main thread only', await perf(service.dns?.port as number)]);
  await closeService();
  service = await serviceWithZone(RRL_PER_SECOND, join(dir, 'service-rrl'));
  const limited = await perf(service.dns?.port as number);
  await closeService();
  // Query analytics' cost: a service without counting and one with, one alive at a time (two services in one
  // process are not alike: the one started first answered up to 10% more, whichever counted).
  const analytics = await alternate(4, async (side, i) => {
    const one = await serviceWithZone(0, join(dir, `service-counting-${side}-${i}`), side === 'on');
    try {
      return await perfWithCpu(one.dns?.port as number, COUNTING_SECONDS);
    } finally {
      await one.close();
    }
  });
  return () => {
    const bind = results[1][1].qps;
    const threads = THREADS ?? String(loadConfig({}).DNS_UDP_THREADS);
    console.log(`DNS queries per second over UDP (dnsperf -c 4 -q 100, ${SECONDS} s each, ${RECORDS.length} records in the zone, ${QUERIES.length} query names):`);
    for (const [label, r] of results) {
      const goal = r === results[0][1] ? `  goal ≥ 1.0× BIND: ${r.qps >= bind ? 'met' : 'NOT met'} (${threads} UDP threads)` : '';
      console.log(`  ${label.padEnd(26)} ${r.qps.toFixed(0).padStart(8)} q/s  ${(r.qps / bind).toFixed(3)}× BIND  (${r.lost} lost)${goal}`);
    }
    console.log(`  ours/Knot ${(results[0][1].qps / results[2][1].qps).toFixed(3)}, ours/NSD ${(results[0][1].qps / results[3][1].qps).toFixed(3)}`);
    const answered = /Queries completed:\s+([0-9]+)/.exec(limited.out)?.[1];
    const sent = /Queries sent:\s+([0-9]+)/.exec(limited.out)?.[1];
    console.log(
      `  with RRL ${RRL_PER_SECOND}/s per client and answer (one client address, ${QUERIES.length} distinct questions): ${limited.qps.toFixed(0)} responses/s, ` +
        `${answered} of ${sent} queries got a response, full or truncated (the others were dropped)`,
    );
    report('query analytics', 'counting', analytics);
  };
}

try {
  writeFileSync(join(dir, 'queries.txt'), `${QUERIES.join('\n')}\n`);
  // Each measured unless only the cookies are asked for (BENCH_DNS_ONLY=cookies).
  const others = COOKIES_ONLY ? null : await comparisons();
  // Cookies' cost, on one service: EDNS queries without a cookie, and with a client cookie, which the server answers
  // with a server cookie of its making. dnsperf sends one client cookie from one address, as a resolver does (one
  // client cookie per server), so the service hashes it once a second and answers the rest from its memo
  // (cookies.cjs answerCookie): the cost measured is the cookie's path through a UDP thread and the longer packets.
  // Short runs and more pairs than for analytics: one service throughout, so a pair costs no start.
  service = await serviceWithZone(0, join(dir, 'service-cookies'));
  const cookiePort = service.dns?.port as number;
  const cookieCost = await alternate(COOKIE_PAIRS, async (side) => perfWithCpu(cookiePort, COOKIE_SECONDS, side === 'on' ? CLIENT_COOKIE : WITHOUT_COOKIE));
  await closeService();

  if (others) others();
  report('DNS cookies', 'a client cookie answered', cookieCost);
} finally {
  for (const s of servers) await s.stop();
  await closeService();
  rmSync(dir, { recursive: true, force: true });
}
