import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import * as dnsPacket from 'dns-packet';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packetCache, type CachedAnswer } from './packet-cache.ts';
import { table } from './answer-table.ts';
import { threadZoneKey } from './thread-zone.ts';

const query = (name: string, type: 'A' | 'TXT' = 'A') => dnsPacket.encode({ id: 1, type: 'query', flags: 0, questions: [{ name, type }] });
/** An answer whose bytes say which question and which version they answer (and are as long as `pad` makes them). */
const answerOf = (name: string, version: number, pad = 0) =>
  dnsPacket.encode({ id: 1, type: 'response', flags: 0, questions: [{ name, type: 'A' }], answers: [{ name, type: 'TXT', ttl: 60, data: `${name} v${version} ${'x'.repeat(pad)}` }] });
const versionIn = (bytes: Buffer) => {
  const [record] = dnsPacket.decode(bytes).answers ?? [];
  const data = (record as { data: Buffer[] }).data[0].toString();
  return { name: data.split(' ')[0], version: Number(data.split(' ')[1].slice(1)) };
};
const entry = (name: string, version: number, zone: string | null, pad = 0): CachedAnswer<undefined> => {
  const bytes = answerOf(name, version, pad);
  return { udp: bytes, full: bytes, zone };
};

describe('the shared answer table, bounded in bytes', () => {
  it('evicts the oldest answers when full and answers every question it still holds with its own bytes', () => {
    const cache = packetCache([], 64 * 1024);
    const names = Array.from({ length: 2000 }, (_, i) => `host${i}.tiny.test`);
    for (const name of names) cache.set(query(name), entry(name, 1, 'tiny.test', 50), cache.begin());
    const held = names.filter((name) => {
      const kept = cache.lookup(query(name));
      if (kept) expect(versionIn(kept.udp)).toEqual({ name, version: 1 });
      return kept !== undefined;
    });
    // 2,000 answers of ~150 bytes do not fit in 64 KiB: the first are gone, the last are there.
    expect(held.length).toBeGreaterThan(100);
    expect(held.length).toBeLessThan(1000);
    expect(held).toContain(names[names.length - 1]);
    expect(held).not.toContain(names[0]);
    const { ringBytes, arenaBytes } = cache.stats();
    expect(ringBytes).toBeLessThanOrEqual(arenaBytes);
    expect(cache.table.byteLength).toBeLessThanOrEqual(64 * 1024);
  });

  it('keeps an answer that is asked while a flood of one-off questions passes through (second chance)', () => {
    const cache = packetCache([], 64 * 1024);
    cache.set(query('hot.tiny.test'), entry('hot.tiny.test', 1, 'tiny.test'), cache.begin());
    for (let i = 0; i < 5000; i += 1) {
      cache.set(query(`once${i}.tiny.test`), entry(`once${i}.tiny.test`, 1, 'tiny.test', 50), cache.begin());
      if (i % 50 === 0) expect(cache.lookup(query('hot.tiny.test')), `after ${i} one-off answers`).toBeDefined();
    }
    expect(cache.lookup(query('once0.tiny.test'))).toBeUndefined();
  });

  it('grows by no more than its budget, however many answers pass through it, and stays flat', () => {
    const budget = 8 * 1024 * 1024;
    const cache = packetCache([], budget);
    // Answers of 1,500 bytes made by hand (the table reads no answer): 40,000 of them are 60 MB, seven times the budget.
    const pass = (round: number) => {
      const question = Buffer.from(query('q00000.z0000.test'));
      for (let i = 0; i < 40_000; i += 1) {
        question.write(`${String(i).padStart(5, '0')}`, 14, 'latin1');
        const answer = Buffer.alloc(1500, (i + round) & 0xff);
        answer[3] = 0; // NOERROR (a SERVFAIL is never kept)
        cache.set(question, { udp: answer, full: answer, zone: `z${String(i % 5000).padStart(4, '0')}.test` }, cache.begin());
      }
      return process.memoryUsage().rss;
    };
    const before = process.memoryUsage().rss;
    const once = pass(1);
    const twice = pass(2);
    const mib = (n: number) => (n / 2 ** 20).toFixed(1);
    console.log(`answer table: 60 MB of answers through ${mib(budget)} MiB: RSS +${mib(once - before)} MiB after one pass, +${mib(twice - before)} MiB after two`);
    expect(cache.stats().ringBytes).toBeLessThanOrEqual(cache.stats().arenaBytes);
    expect(cache.lookup(Buffer.from(query('q39999.z0000.test')))?.udp[100]).toBe((39_999 + 2) & 0xff);
    // What a pass leaves is the table and the garbage a collection has not taken yet, never the answers themselves.
    expect(once - before).toBeLessThan(budget + 40 * 2 ** 20);
    expect(twice - once).toBeLessThan(16 * 2 ** 20);
  });
});

/** A zone tree with every relation `touches` knows: a zone, one below it, one above it, an unrelated one, the catalog, and answers of no zone. */
const ZONES = ['com', 'a.com', 'sub.a.com', 'b.com', 'x.b.com', 'catalog.test', null] as const;
const NAMES = ZONES.flatMap((zone) => [0, 1].map((i) => ({ zone, name: `n${i}.${zone ?? 'nozone.invalid'}` })));
const touches = (changed: string, zone: string) => zone === changed || zone.endsWith(`.${changed}`) || changed.endsWith(`.${zone}`);

describe('the shared answer table\'s index', () => {
  it('places a registrar\'s zones as a random hash would: few lose their slot to a neighbour\'s name', () => {
    // The default table (72 MiB: 131,072 buckets of four slots) and 100,000 zones named as a registrar's are.
    const cache = packetCache([], 72 * 1024 * 1024);
    const view = table.openTable(cache.table);
    const zones = Array.from({ length: 100_000 }, (_, i) => `z${i}.bench-zones.com`);
    const form = Buffer.alloc(16);
    for (const zone of zones) cache.keepZone(zone, () => form, cache.begin());
    const lost = zones.filter((zone) => {
      const key = threadZoneKey(zone);
      return !table.find(view, key, key.length);
    }).length;
    // Poisson(0.76) per bucket puts ~100–170 past four; FNV-1a's low bits alone lost 400.
    expect(lost).toBeGreaterThan(0);
    expect(lost).toBeLessThan(250);
  });
});

describe('the shared answer table, dropped per zone', () => {
  it('never answers what a drop made stale, and keeps what it did not touch (random sets and drops against a model)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), at: fc.nat(NAMES.length - 1), late: fc.boolean() }),
      fc.record({ kind: fc.constant('drop' as const), zone: fc.constantFrom(...ZONES) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), (ops) => {
        const cache = packetCache(['catalog.test'], 256 * 1024);
        const model = new Map<string, { zone: string | null; version: number }>();
        let version = 0;
        for (const o of ops) {
          if (o.kind === 'drop') {
            cache.drop(o.zone);
            for (const [name, kept] of model) {
              const zone = kept.zone === 'catalog.test' ? null : kept.zone;
              if (o.zone === null || zone === null || touches(o.zone, zone)) model.delete(name);
            }
            continue;
          }
          const { name, zone } = NAMES[o.at];
          version += 1;
          // A late answer: computed while a change arrived, so never kept.
          const token = cache.begin();
          if (o.late) cache.drop('unrelated.example');
          cache.set(query(name), entry(name, version, zone), token);
          if (o.late) {
            for (const [n, kept] of model) if (kept.zone === null || kept.zone === 'catalog.test') model.delete(n);
          } else model.set(name, { zone, version });
        }
        for (const { name } of NAMES) {
          const kept = cache.lookup(query(name));
          const expected = model.get(name);
          expect(kept ? versionIn(kept.udp) : undefined, name).toEqual(expected ? { name, version: expected.version } : undefined);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('the shared answer table, read by another thread while it is written', () => {
  it('a reader thread never sees torn bytes nor an answer older than the last drop it saw', async () => {
    const cache = packetCache([], 96 * 1024);
    const seen = new SharedArrayBuffer(8);
    // [0] the version the writer has dropped everything before, [1] the stop flag.
    const control = new Int32Array(seen);
    const names = Array.from({ length: 400 }, (_, i) => `r${i}.race.test`);
    const worker = new Worker(READER, { eval: true, workerData: { table: cache.table, control: seen, names: names.map((n) => query(n)), module: fileURLToPath(new URL('./answer-table.cjs', import.meta.url)) } });
    const verdict = new Promise<{ hits: number; torn: number; stale: number; checked: number }>((done, fail) => {
      worker.once('message', done);
      worker.once('error', fail);
    });
    const started = Date.now();
    for (let version = 1; Date.now() - started < 1000; version += 1) {
      // A drop, then the version made public, then new answers: an answer older than what a reader saw is stale.
      cache.drop(null);
      Atomics.store(control, 0, version);
      for (let i = 0; i < 40; i += 1) {
        const name = names[(version * 37 + i) % names.length];
        cache.set(query(name), entry(name, version, 'race.test', (version + i) % 200), cache.begin());
      }
      if (version % 20 === 0) await new Promise((r) => setImmediate(r));
    }
    Atomics.store(control, 1, 1);
    const { hits, torn, stale, checked } = await verdict;
    console.log(`answer table race: ${checked} lookups by the reader, ${hits} hits, ${torn} torn, ${stale} stale`);
    expect(hits).toBeGreaterThan(100);
    expect(torn).toBe(0);
    expect(stale).toBe(0);
  }, 10_000);
});

/** The reader thread: looks up every name over and over as a UDP thread does (find, copy, unchanged), and checks each hit's bytes. */
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
const { openTable, find, unchanged } = require(workerData.module);
const dnsPacket = require(${JSON.stringify(createRequire(import.meta.url).resolve('dns-packet'))});
const t = openTable(workerData.table);
const control = new Int32Array(workerData.control);
const names = workerData.names.map((q) => Buffer.from(q));
const out = Buffer.alloc(2048);
let hits = 0, torn = 0, stale = 0, checked = 0;
while (Atomics.load(control, 1) === 0) {
  for (const q of names) {
    const floor = Atomics.load(control, 0);
    checked += 1;
    if (!find(t, q, q.length)) continue;
    const length = t.udpLength;
    if (length > out.length) { torn += 1; continue; }
    t.bytes.copy(out, 0, t.udpAt, t.udpAt + length);
    if (!unchanged(t)) continue;
    hits += 1;
    let data;
    try { data = dnsPacket.decode(out.subarray(0, length)).answers[0].data[0].toString(); } catch { torn += 1; continue; }
    const [name, v] = data.split(' ');
    if (name !== dnsPacket.decode(q).questions[0].name) torn += 1;
    else if (Number(v.slice(1)) < floor) stale += 1;
  }
}
parentPort.postMessage({ hits, torn, stale, checked });
`;
