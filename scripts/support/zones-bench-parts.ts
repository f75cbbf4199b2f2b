import { execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { query } from '../../server/dns-client/client.ts';
import { NAME_SERVER_BINARIES, startKnot, startNamed, type RunningNameServer } from '../../test/support/name-servers.ts';
import { freePort } from '../../test/support/ports.ts';
import { seededZone, smallZoneRecords } from '../../test/support/zone-seeding.ts';
import { SERVICE_NODE_ARGS } from '../service-args.ts';

/** What `npm run bench:zones` runs and reads: the service as its own process, dnsperf, Knot and BIND with N zone files. */

/** Resident memory of a process (VmRSS: every thread of it, the UDP threads included), in MiB. */
export function rssMiB(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(line[1]) / 1024;
}

/**
 * Resident memory a while after a load ended (default 12 s, past one query-analytics flush of ANALYTICS_FLUSH_MS's
 * 10 s): a reading taken as a pass ends falls before the flush writes what the pass counted and before the collector
 * ran, and moved by tens of MiB either way between runs of the same passes.
 */
export async function settledRssMiB(pid: number, afterMs = 12_000): Promise<number> {
  await new Promise((done) => setTimeout(done, afterMs));
  return rssMiB(pid);
}

function shuffled(count: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** A dnsperf query file: every zone's apex A once, in a random order of its own. */
export function everyZoneOnce(dir: string, label: string, count: number): string {
  const path = join(dir, `every-zone-${label}.txt`);
  writeFileSync(path, `${shuffled(count).map((i) => `${seededZone(i)} A`).join('\n')}\n`);
  return path;
}

/** A dnsperf query file of random zones (with repeats) and their names that exist: a load spread over all of them. */
export function randomZones(dir: string, count: number, lines = 200_000): string {
  const path = join(dir, 'random-zones.txt');
  const names = ['', 'www.', 'mail.'];
  const types = ['A', 'MX', 'TXT'];
  const out: string[] = [];
  for (let k = 0; k < lines; k += 1) {
    const i = Math.floor(Math.random() * count);
    const at = Math.floor(Math.random() * 3);
    out.push(`${names[at]}${seededZone(i)} ${at === 0 ? types[Math.floor(Math.random() * 3)] : 'A'}`);
  }
  writeFileSync(path, `${out.join('\n')}\n`);
  return path;
}

export interface Perf {
  qps: number;
  completed: number;
  lost: number;
  seconds: number;
}

/** dnsperf over UDP (4 clients, 100 queries outstanding): `passes` through the file, or `seconds`, whichever ends first. */
export async function dnsperf(port: number, file: string, limit: { passes?: number; seconds?: number }): Promise<Perf> {
  const args = ['-s', '127.0.0.1', '-p', String(port), '-d', file, '-c', '4', '-q', '100', '-t', '5'];
  if (limit.passes) args.push('-n', String(limit.passes));
  if (limit.seconds) args.push('-l', String(limit.seconds));
  const { stdout } = await promisify(execFile)(NAME_SERVER_BINARIES.dnsperf.path, args, { encoding: 'utf8', maxBuffer: 16 << 20 });
  const read = (label: string) => Number(new RegExp(`${label}:\\s+([0-9.]+)`).exec(stdout)?.[1]);
  const perf = { qps: read('Queries per second'), completed: read('Queries completed'), lost: read('Queries lost'), seconds: read('Run time \\(s\\)') };
  if (!Number.isFinite(perf.qps)) throw new Error(`dnsperf failed:\n${stdout}`);
  return perf;
}

/** Waits until `zone`'s apex answers NOERROR with an answer on `port`; answers the milliseconds since `since`. */
async function firstAnswer(port: number, zone: string, since: number, alive: () => boolean, timeoutMs = 600_000): Promise<number> {
  for (;;) {
    if (!alive()) throw new Error('the server exited before it answered');
    const asked = await query({ host: '127.0.0.1', port }, zone, 'SOA', { timeoutMs: 250 });
    if (asked.ok && asked.reply.rcode === 0 && asked.reply.answers.length > 0) return performance.now() - since;
    if (performance.now() - since > timeoutMs) throw new Error(`${zone} not answered within ${timeoutMs / 1000} s`);
    await new Promise((done) => setTimeout(done, asked.ok ? 20 : 5));
  }
}

export interface ServiceRun {
  pid: number;
  dnsPort: number;
  /** Milliseconds from spawn to the first answer of a zone's SOA. */
  startMs: number;
  stop(): Promise<void>;
}

/**
 * The service as `npm start` runs it (server/main.ts with the flags of `npm run service`, its DNS server and that
 * server's UDP threads), on the seeded data; every setting of this process's environment (DNS_CACHE_MB,
 * DNS_UDP_THREADS, …) passes through.
 */
export async function runService(env: Record<string, string>, probeZone: string, timeoutMs?: number): Promise<ServiceRun> {
  const dnsPort = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, SERVICE_NODE_ARGS, {
    env: { ...process.env, PORT: '0', CHAIN: 'none', LOG_REQUESTS: 'false', DNS_PORT: String(dnsPort), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const startMs = await firstAnswer(dnsPort, probeZone, started, () => child.exitCode === null, timeoutMs);
    return { pid: child.pid as number, dnsPort, startMs, stop };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
}

/** The zone file the service's zone i amounts to: its SOA and NS (as the service makes them) and its five records. */
function zoneFile(i: number): string {
  const zone = seededZone(i);
  const lines = [
    `$ORIGIN ${zone}.`,
    '$TTL 3600',
    `@ 3600 IN SOA ns1.namefi.test. hostmaster.${zone}. 1 14400 3600 1209600 300`,
    '@ 3600 IN NS ns1.namefi.test.',
    '@ 3600 IN NS ns2.namefi.test.',
    ...smallZoneRecords(i).map((r) => `${r.name} ${r.ttl} IN ${r.type} ${r.rdata}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** Writes the zone files of zones 0 … count-1 into `dir` (`<zone>.zone`), once for both servers. */
export function writeZoneFiles(dir: string, count: number): void {
  for (let i = 0; i < count; i += 1) writeFileSync(join(dir, `${seededZone(i)}.zone`), zoneFile(i));
}

/**
 * Starts `kind` in `dir` with a configuration listing each zone file of `zonesDir` (writeZoneFiles); answers the
 * server and its load time.
 */
export async function startWithZones(kind: 'knotd' | 'named', dir: string, zonesDir: string, count: number): Promise<{ server: RunningNameServer; loadMs: number }> {
  const port = await freePort();
  const last = seededZone(count - 1);
  const started = performance.now();
  let server: RunningNameServer;
  if (kind === 'knotd') {
    const zones = Array.from({ length: count }, (_, i) => `  - domain: ${seededZone(i)}\n`).join('');
    const template = `template:\n  - id: default\n    storage: "${zonesDir}"\n    file: "%s.zone"\n    zonefile-sync: -1\n    zonefile-load: whole\n    journal-content: none\n`;
    server = await startKnot(join(dir, 'knot'), port, `${template}zone:\n${zones}`, last, 600_000);
  } else {
    const zones = Array.from({ length: count }, (_, i) => `zone "${seededZone(i)}" { type primary; file "${zonesDir}/${seededZone(i)}.zone"; };\n`).join('');
    server = await startNamed(join(dir, 'named'), port, zones, last, '', '127.0.0.1', 600_000);
  }
  // The last zone listed answers; every zone loaded is when a random one does too (each is checked once more).
  await firstAnswer(port, seededZone(Math.floor(Math.random() * count)), started, () => true);
  return { server, loadMs: performance.now() - started };
}

const PROBE = fileURLToPath(new URL('../../test/support/udp-probe.cjs', import.meta.url));
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? Number.NaN;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Latency of questions about four zones, one sent every millisecond for `seconds` (test/support/udp-probe.cjs). */
async function probe(port: number, seconds: number): Promise<{ latencies: number[]; lost: number }> {
  const asked = [0, 1, 2, 3].flatMap((i) => [`${seededZone(i)}:A`, `www.${seededZone(i)}:A`, `${seededZone(i)}:MX`]);
  const { stdout } = await promisify(execFile)(process.execPath, [PROBE, String(port), String(seconds), ...asked], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(stdout) as { latencies: number[]; lost: number };
}

/**
 * Issue 50's bad input: four zones' p99 quiet and under a flood of random names under random other zones (dnsperf
 * as fast as they are answered), three rounds of each alternating, the median of each side's p99s.
 */
export async function floodLatency(port: number, dir: string, count: number, seconds = 2) {
  const quiet: number[] = [];
  const flooded: number[] = [];
  let floodQps = 0;
  let lost = 0;
  for (let round = 0; round < 3; round += 1) {
    const file = join(dir, `flood-${round}.txt`);
    const lines = Array.from({ length: 100_000 }, (_, k) => `r${round}-${k.toString(36)}.${seededZone(4 + Math.floor(Math.random() * (count - 4)))} A`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const alone = await probe(port, seconds);
    const [flood, during] = await Promise.all([dnsperf(port, file, { seconds: seconds + 0.2 }), probe(port, seconds)]);
    quiet.push(p99(alone.latencies));
    flooded.push(p99(during.latencies));
    floodQps += flood.qps / 3;
    lost += alone.lost + during.lost;
  }
  return { quietP99: median(quiet), floodP99: median(flooded), floodQps, lost };
}
