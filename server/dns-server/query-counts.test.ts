import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { readZoneAnalytics } from '../analytics/read.ts';
import { NAMES_PER_MINUTE, queryCounter, type Tally } from './query-counts.ts';

let db: Database;
beforeAll(async () => {
  db = await openDatabase({ dataDir: 'memory://' });
  await migrate(db);
}, 60_000);
afterAll(async () => db?.close());

const T0 = Date.parse('2026-11-26T09:59:30Z');
const tally = (zone: string, name: string, rcode: Tally['rcode'] = 'NOERROR'): Tally => ({ zone, name, type: 'A', rcode, dnssecOk: false });

describe('the query counter', () => {
  it('adds two count maps key by key in the database (jsonb_add_counts), keys of either side kept', async () => {
    const add = async (a: object, b: object) => (await db.query<{ sum: Record<string, number> }>('SELECT jsonb_add_counts($1::jsonb, $2::jsonb) AS sum', [JSON.stringify(a), JSON.stringify(b)]))[0].sum;
    expect(await add({ 'www A NOERROR': 1, '@ MX NOERROR': 2 }, { '@ MX NOERROR': 3, 'x A NXDOMAIN': 4 })).toEqual({ 'www A NOERROR': 1, '@ MX NOERROR': 5, 'x A NXDOMAIN': 4 });
    expect(await add({}, { udp: 2 })).toEqual({ udp: 2 });
    expect(await add({ udp: 2 }, {})).toEqual({ udp: 2 });
  });

  it('adds what two counters counted, across minutes, hours and days, and keeps at most 100 names a minute', async () => {
    let now = T0;
    const a = queryCounter(db, { flushMs: 3_600_000, keepDays: 90, now: () => now });
    const b = queryCounter(db, { flushMs: 3_600_000, keepDays: 90, now: () => now });
    for (let i = 0; i < NAMES_PER_MINUTE + 20; i += 1) a.count(tally('a.com', `n${i}`), 'udp');
    b.count(tally('a.com', 'n0'), 'tcp');
    b.count(tally('b.com', 'x', 'NXDOMAIN'), 'udp');
    now = T0 + 60_000; // 10:00:30: the next minute, hour and day's hour
    a.count(tally('a.com', 'n0'), 'doh');
    await a.flush();
    await b.stop();
    a.count(tally('a.com', 'late'), 'udp');
    await a.stop();
    const day = await readZoneAnalytics(db, 'a.com', { since: Date.parse('2026-11-26T00:00:00Z'), until: Date.parse('2026-11-27T00:00:00Z'), step: '1h' });
    expect(day.series.map((p) => [p.at, p.total])).toEqual([
      ['2026-11-26T09:00:00.000Z', NAMES_PER_MINUTE + 21],
      ['2026-11-26T10:00:00.000Z', 2],
    ]);
    expect(day.series[0].byTransport).toEqual({ udp: NAMES_PER_MINUTE + 20, tcp: 1 });
    expect(day.topNames[0]).toEqual({ name: 'n0', type: 'A', rcode: 'NOERROR', count: 3 });
    const names = await db.query<{ n: number; other: string }>(`SELECT (SELECT count(*) FROM jsonb_object_keys(names))::int AS n, other::text FROM dns_query_counts WHERE zone_name = 'a.com' AND step = '1m' AND at = '2026-11-26T09:59:00Z'`);
    expect(names[0]).toEqual({ n: NAMES_PER_MINUTE, other: '20' });
    const days = await readZoneAnalytics(db, 'a.com', { since: Date.parse('2026-11-20T00:00:00Z'), until: Date.parse('2026-11-27T00:00:00Z'), step: '1d' });
    expect(days.series.map((p) => p.total)).toEqual([NAMES_PER_MINUTE + 23]);
    const other = await readZoneAnalytics(db, 'b.com', { since: T0 - 30_000, until: T0 + 30_000, step: '1m' });
    expect(other.series[0].byRcode).toEqual({ NXDOMAIN: 1 });
  });

  it('keeps the counts of a write that failed for the next flush', async () => {
    let fail = true;
    const flaky = { query: async <T>(sql: string, params?: unknown[]) => (fail && sql.startsWith('INSERT') ? Promise.reject(new Error('down')) : db.query<T>(sql, params)) };
    const errors: string[] = [];
    const c = queryCounter(flaky, { flushMs: 3_600_000, keepDays: 90, now: () => T0, onError: (e) => errors.push(e.message) });
    c.count(tally('c.com', 'www'), 'udp');
    await c.flush();
    expect(errors).toEqual(['down']);
    fail = false;
    c.count(tally('c.com', 'www'), 'udp');
    await c.stop();
    const read = await readZoneAnalytics(db, 'c.com', { since: T0 - 30_000, until: T0 + 30_000, step: '1m' });
    expect(read.series.map((p) => p.total)).toEqual([2]);
  });

  it('puts back a minute past its 100 names whole when its write failed: names, other and what they were', async () => {
    let fail = true;
    const flaky = { query: async <T>(sql: string, params?: unknown[]) => (fail && sql.startsWith('INSERT') ? Promise.reject(new Error('down')) : db.query<T>(sql, params)) };
    const c = queryCounter(flaky, { flushMs: 3_600_000, keepDays: 90, now: () => T0, onError: () => {} });
    for (let i = 0; i < NAMES_PER_MINUTE + 5; i += 1) c.count({ zone: 'over.com', name: `n${i}`, type: i % 2 ? 'AAAA' : 'A', rcode: 'NXDOMAIN', dnssecOk: i < 3 }, i < 10 ? 'tcp' : 'udp');
    await c.flush();
    fail = false;
    c.count(tally('over.com', 'n0'), 'udp');
    await c.stop();
    const read = await readZoneAnalytics(db, 'over.com', { since: T0 - 30_000, until: T0 + 30_000, step: '1m' });
    expect(read.series[0]).toMatchObject({ total: NAMES_PER_MINUTE + 6, byTransport: { tcp: 10, udp: NAMES_PER_MINUTE - 4 }, byRcode: { NXDOMAIN: NAMES_PER_MINUTE + 5, NOERROR: 1 } });
    expect(read.series[0].byType).toEqual({ A: (NAMES_PER_MINUTE + 5 + 1) / 2 + 1, AAAA: (NAMES_PER_MINUTE + 5 - 1) / 2 });
    const row = await db.query<{ n: number; other: string; dnssec_ok: string }>(`SELECT (SELECT count(*) FROM jsonb_object_keys(names))::int AS n, other::text, dnssec_ok::text FROM dns_query_counts WHERE zone_name = 'over.com' AND step = '1m'`);
    // n0 asked again without DO over UDP is a key of its own, past the 100: counted as other.
    expect(row[0]).toEqual({ n: NAMES_PER_MINUTE, other: '6', dnssec_ok: '3' });
  });

  it('writes many zones in bounded statements, and a statement that failed keeps its zones and the rest, never the ones written', async () => {
    const zones = Array.from({ length: 2500 }, (_, i) => `many${i}.com`);
    let inserts = 0;
    const statements: number[] = [];
    const flaky = {
      query: async <T>(sql: string, params?: unknown[]) => {
        if (!sql.startsWith('INSERT')) return db.query<T>(sql, params);
        inserts += 1;
        if (inserts === 2) throw new Error('down');
        statements.push((JSON.parse(String(params?.[0])) as unknown[]).length);
        return db.query<T>(sql, params);
      },
    };
    const errors: string[] = [];
    const c = queryCounter(flaky, { flushMs: 3_600_000, keepDays: 90, now: () => T0, onError: (e) => errors.push(e.message) });
    for (const zone of zones) c.count(tally(zone, 'www'), 'udp');
    await c.flush();
    expect(errors).toEqual(['down']);
    await c.stop();
    // Three rows a zone (its minute, hour and day), at most 1,000 zones a statement: 1,000 written, then 1,500 kept and written.
    expect(statements).toEqual([3000, 3000, 1500]);
    const totals = await db.query<{ n: string; sum: string }>(`SELECT count(*)::text AS n, sum(total)::text AS sum FROM dns_query_counts WHERE zone_name LIKE 'many%' AND step = '1m'`);
    expect(totals[0]).toEqual({ n: '2500', sum: '2500' });
  });

  it('leaves the main thread to the name server between the statements of a flush: three times as long as each took', async () => {
    const spans: Array<[number, number]> = [];
    let loopTurns = 0;
    const slow = {
      query: async <T>(sql: string, params?: unknown[]) => {
        if (!sql.startsWith('INSERT')) return db.query<T>(sql, params);
        // As PGlite does: the statement holds the thread (here 20 ms of it), nothing else runs meanwhile.
        const start = performance.now();
        while (performance.now() - start < 20) loopTurns += 0;
        const rows = await db.query<T>(sql, params);
        spans.push([start, performance.now()]);
        return rows;
      },
    };
    const c = queryCounter(slow, { flushMs: 3_600_000, keepDays: 90, now: () => T0 });
    for (let i = 0; i < 3000; i += 1) c.count(tally(`yield${i}.com`, '@'), 'udp');
    const ticking = setInterval(() => (loopTurns += 1), 2);
    await c.stop();
    clearInterval(ticking);
    expect(spans).toHaveLength(3);
    for (let i = 1; i < spans.length; i += 1) {
      const took = spans[i - 1][1] - spans[i - 1][0];
      expect(spans[i][0] - spans[i - 1][1]).toBeGreaterThanOrEqual(3 * took - 2);
    }
    // The loop turned between them: a query arriving then would have been answered.
    expect(loopTurns).toBeGreaterThan(10);
  });

  it('keeps at most its bound of zones\' minutes waiting, and says how many answers it did not count', async () => {
    const errors: string[] = [];
    const c = queryCounter(db, { flushMs: 3_600_000, keepDays: 90, now: () => T0, onError: (e) => errors.push(e.message), pendingBuckets: 3 });
    for (const zone of ['b1.com', 'b2.com', 'b3.com', 'b4.com', 'b5.com', 'b1.com']) c.count(tally(zone, '@'), 'udp', 2);
    await c.flush();
    expect(errors).toEqual(["4 answers were not counted: 3 zones' minutes were waiting for the database"]);
    const rows = await db.query<{ zone_name: string; total: string }>(`SELECT zone_name, total::text FROM dns_query_counts WHERE zone_name LIKE 'b_.com' AND step = '1m' ORDER BY zone_name`);
    expect(rows).toEqual([{ zone_name: 'b1.com', total: '4' }, { zone_name: 'b2.com', total: '2' }, { zone_name: 'b3.com', total: '2' }]);
    // Written, the bound is free again.
    c.count(tally('b5.com', '@'), 'udp');
    await c.stop();
    expect(errors).toHaveLength(1);
  });
});
