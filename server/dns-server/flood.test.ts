import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_SERVER_BINARIES, nameServersMissing } from '../../test/support/name-servers.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { seededZone, seedZones } from '../../test/support/zone-seeding.ts';

/**
 * Bad input (issue 50): a flood of queries for random registered zones (each first asked cold) and for random names
 * under them (each a question never seen, so an answer no cache has yet) keeps the name server within its memory
 * and answering other zones at their usual latency. The flood (dnsperf) and the probe of the other zones
 * (test/support/udp-probe.cjs, a question every millisecond) are processes of their own, so neither shares an event
 * loop with the service, which runs in this process so that its caches can be read. Quiet windows and flooded ones
 * alternate, measured by the same probe. What it costs: 60 zones seeded through the pipeline (~1.7 s of CPU
 * here) and three rounds of 0.8 s quiet and 0.8 s flooded (~2.5 s of CPU, the flood's answers included); under load
 * averages of 8–14 on this 2-core machine the file took 17–28 s with the service's start.
 */
const missing = nameServersMissing(['dnsperf']);
if (missing) throw new Error(missing);

const ZONES = 60;
/** The zones the probe asks about, over and over: "other zones", never in the flood. */
const QUIET_ZONES = 4;
/** Quiet and flooded windows alternate, so that a change in the machine's load falls on both alike. */
const ROUNDS = 3;
const WINDOW_SECONDS = 0.8;
/**
 * The cache budget the flood must stay within (DNS_CACHE_MB, in MiB; the least the setting takes): three quarters
 * for the packet cache, smaller than the flood's ~10,000 distinct answers, and a quarter for the zones' snapshots.
 */
const CACHE_MB = 4;

const dir = mkdtempSync(join(tmpdir(), 'namefi-flood-'));
let service: TestService;
let port: number;

beforeAll(async () => {
  service = await startTestService({ DNS_PORT: '0', DNS_CACHE_MB: String(CACHE_MB) });
  port = service.dns?.port as number;
  await seedZones(service.services.db, service.services.config, { zones: Array.from({ length: ZONES }, (_, i) => i), batch: ZONES });
  // A file per round of the flood; each line a zone not yet asked or a name never asked: a third cold zones, two
  // thirds random names under them.
  for (let round = 0; round < ROUNDS; round += 1) {
    const flood = Array.from({ length: 20_000 }, (_, k) => {
      const zone = seededZone(QUIET_ZONES + Math.floor(Math.random() * (ZONES - QUIET_ZONES)));
      return k % 3 === 0 ? `${zone} A` : `r${round}-${k.toString(36)}${Math.random().toString(36).slice(2, 8)}.${zone} A`;
    });
    writeFileSync(join(dir, `flood-${round}.txt`), `${flood.join('\n')}\n`);
  }
});

afterAll(async () => {
  await service?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const perf = promisify(execFile);
const dnsperf = (file: string, args: string[]) =>
  perf(NAME_SERVER_BINARIES.dnsperf.path, ['-s', '127.0.0.1', '-p', String(port), '-d', join(dir, file), '-t', '2', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

const PROBE = fileURLToPath(new URL('../../test/support/udp-probe.cjs', import.meta.url));
const QUIET = Array.from({ length: QUIET_ZONES }, (_, i) => [`${seededZone(i)}:A`, `www.${seededZone(i)}:A`, `${seededZone(i)}:MX`]).flat();

/** The probe (a process of its own): a question about the quiet zones every millisecond for `seconds`; each latency in ms. */
async function probe(seconds: number): Promise<{ latencies: number[]; rcodes: Record<string, number>; lost: number }> {
  const { stdout } = await perf(process.execPath, [PROBE, String(port), String(seconds), ...QUIET], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(stdout);
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

describe('a flood of random zones and random names', () => {
  it('keeps the instance within its memory and other zones at their usual latency', { timeout: 20_000 }, async () => {
    await probe(0.2); // the quiet zones asked: warm, as other zones in use are
    const quiet: number[][] = [];
    const loud: number[][] = [];
    const rcodes: Record<string, number> = {};
    let flooded = 0;
    let lost = 0;
    const rssBefore = process.memoryUsage.rss();
    for (let round = 0; round < ROUNDS; round += 1) {
      const alone = await probe(WINDOW_SECONDS);
      const [flood, during] = await Promise.all([dnsperf(`flood-${round}.txt`, ['-c', '4', '-q', '200', '-l', String(WINDOW_SECONDS + 0.2)]), probe(WINDOW_SECONDS)]);
      quiet.push(alone.latencies);
      loud.push(during.latencies);
      flooded += Number(/Queries completed:\s+(\d+)/.exec(flood.stdout)?.[1]);
      lost += alone.lost + during.lost;
      for (const [rcode, n] of [...Object.entries(alone.rcodes), ...Object.entries(during.rcodes)]) rcodes[rcode] = (rcodes[rcode] ?? 0) + n;
    }
    const rssGrowthMiB = (process.memoryUsage.rss() - rssBefore) / 2 ** 20;
    // Back-pressure (udp-threads.ts): the misses the main thread resolved at once never passed the bound; past it the
    // threads dropped them (dnsperf's, which it counts lost; the probe's are hits, answered by the threads meanwhile).
    const misses = (service.dns as unknown as { misses?: () => { bound: number; peak: number; dropped: number } | null }).misses?.();
    // Each window's p99, and the median of the three: a burst of the machine's other work spoils one window, not the verdict.
    const quietP99 = median(quiet.map(p99));
    const loudP99 = median(loud.map(p99));
    const answered = [...quiet, ...loud].reduce((n, window) => n + window.length, 0);
    console.log(`flood: ${flooded} flood queries answered; p99 ${loudP99.toFixed(2)} ms flooded, ${quietP99.toFixed(2)} ms quiet; misses ${JSON.stringify(misses ?? null)}`);
    if (misses) expect(misses.peak).toBeLessThanOrEqual(misses.bound);

    // It was a flood: more questions never asked before than the server answers in the time (dnsperf keeps 800
    // outstanding), every cold zone among them; and the probe's every question was answered, NOERROR.
    expect(flooded).toBeGreaterThan(1_000);
    for (const window of [...quiet, ...loud]) expect(window.length).toBeGreaterThan(250);
    // Since the UDP threads answer names a compiled zone lacks (NXDOMAIN) themselves, the flood runs at their pace,
    // ~50,000 a second rather than the main thread's ~2,000, past what this 2-core machine reads (dnsperf shares it):
    // the kernel drops datagrams when the socket's buffer is full, the flood's and now and then one of the probe's
    // (measured: 0 to 2 of ~3,900). So up to one in 500 may go unanswered (counted as a 1 s latency); every answer
    // that comes is NOERROR.
    expect(rcodes).toEqual({ 0: answered - lost });
    expect(lost, `${lost} of the probe's ${answered} questions unanswered`).toBeLessThanOrEqual(Math.ceil(answered / 500));
    // Usual latency: p99 within 2× of quiet, or within 50 ms of it. On loopback the quiet p99 is a fraction of a
    // millisecond, where the scheduler of a loaded 2-core machine (the flood's main thread takes one core, and CI runs
    // two test files at once) adds several: measured here under load averages of 8 to 14, mostly 4–27 ms flooded
    // (once 57) against 0.4–9 ms quiet. What the bound is for: a quiet zone's answer gone from the cache waits
    // behind the flood on the main thread, and the probe asks it again every 12 ms meanwhile, so each eviction makes
    // several slow samples: with every cached answer dropped every 50 ms during the flood, p99 was 117 ms.
    // The figure itself, against the 2× goal, is bench:zones's to print (speed figures are benches', not tests').
    expect(loudP99, `p99 ${loudP99.toFixed(2)} ms under the flood, ${quietP99.toFixed(2)} ms quiet`).toBeLessThanOrEqual(Math.max(2 * quietP99, quietP99 + 50));

    // Within its memory: the caches hold no more than DNS_CACHE_MB, however many zones and names were asked.
    // The snapshots' and forms' estimated bytes (zone-source.ts) within a quarter of the budget, and the shared
    // answer table's (answer-table-writer.ts) within the other three quarters.
    const budget = CACHE_MB * 2 ** 20;
    const snapshots = service.dns!.zones.cached();
    const table = service.dns!.cache.stats();
    // The flood's cold zones were answered from their compiled forms, now in the table (no snapshot built for them).
    expect(table.entries).toBeGreaterThan(0);
    expect(snapshots.bytes).toBeLessThanOrEqual(budget / 4);
    expect(table.arenaBytes).toBeLessThanOrEqual((budget * 3) / 4);
    expect(table.ringBytes).toBeLessThanOrEqual(table.arenaBytes);
    // And the whole process (this test's worker, the service and its UDP threads) grew by less than the flood would
    // cost unbounded: every answer kept by the main thread and copied into each UDP thread.
    expect(rssGrowthMiB).toBeLessThan(64);
  });
});
