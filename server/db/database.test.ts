import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.ts';

/**
 * The embedded database has no autovacuum: without analyzeIfStale its planner would read a page of a big zone by
 * fetching and sorting every later row. These tests read the plan PostgreSQL itself reports.
 */
describe('PGlite keeps its planner statistics where autovacuum would', () => {
  let db: Database;
  const PAGE = 'EXPLAIN SELECT id FROM pages WHERE zone = $1 AND seq > $2 ORDER BY seq LIMIT 1000';
  const plan = async () => (await db.query<{ 'QUERY PLAN': string }>(PAGE, ['big.com', 50_000])).map((row) => row['QUERY PLAN']).join('\n');
  /** The row count the planner believes (ANALYZE sets it; -1 until then). */
  const plannerRows = async () => (await db.query<{ n: number }>("SELECT reltuples::int AS n FROM pg_class WHERE relname = 'pages'"))[0].n;

  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory://' });
    await db.exec('CREATE TABLE pages (id BIGSERIAL, zone TEXT NOT NULL, seq BIGINT NOT NULL); CREATE INDEX pages_zone_seq ON pages (zone, seq)');
    await db.query("INSERT INTO pages (zone, seq) SELECT CASE WHEN g % 10 = 0 THEN 'other.com' ELSE 'big.com' END, g FROM generate_series(1, 100000) AS g");
  });
  afterAll(() => db.close());

  it('reads a page of a grown table by its index once the table is analyzed, and not before', async () => {
    expect(await plannerRows()).toBe(-1);
    expect(await plan()).not.toMatch(/^\s*->\s+Index Scan using pages_zone_seq/m);
    await db.analyzeIfStale?.(['pages']);
    expect(await plannerRows()).toBeGreaterThan(90_000);
    expect(await plan()).toMatch(/^\s*->\s+Index Scan using pages_zone_seq/m);
  });

  it('leaves a table alone until it has grown by more than a tenth', async () => {
    const analyzed = await plannerRows();
    await db.query("INSERT INTO pages (zone, seq) SELECT 'big.com', g FROM generate_series(100001, 105000) AS g");
    await db.analyzeIfStale?.(['pages']);
    expect(await plannerRows(), '5% more rows').toBe(analyzed);
    await db.query("INSERT INTO pages (zone, seq) SELECT 'big.com', g FROM generate_series(105001, 120000) AS g");
    await db.analyzeIfStale?.(['pages']);
    expect(await plannerRows(), '20% more rows').toBeGreaterThan(110_000);
  });

  it('takes names it does not know, or odd ones, without error', async () => {
    await expect(db.analyzeIfStale?.(['no_such_table', 'pages"; DROP TABLE pages; --'])).resolves.toBeUndefined();
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pages'))[0].n).toBe(120_000);
  });
});

/**
 * Without autovacuum a PGlite table keeps every old version of an updated row: the upkeep loop vacuums a table once
 * it has grown by a fifth, after which its freed space takes the next updates and it stops growing.
 */
describe('PGlite vacuums a grown table where autovacuum would', () => {
  let db: Database;
  const pages = async () => (await db.query<{ n: number }>("SELECT (pg_relation_size('zones_t') / 8192)::int AS n"))[0].n;
  const updateAll = () => db.query("UPDATE zones_t SET version = version + 1, body = repeat('x', 200)");

  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory://' });
    await db.exec('CREATE TABLE zones_t (name TEXT PRIMARY KEY, version INT NOT NULL, body TEXT NOT NULL)');
    await db.query("INSERT INTO zones_t SELECT 'z' || g || '.com', 0, repeat('x', 200) FROM generate_series(1, 20000) AS g");
  });
  afterAll(() => db.close());

  it('vacuums a table its updates grew, once, and the next updates reuse its space', async () => {
    expect(await db.vacuumIfGrown?.(), 'new, never measured: grown past 128 pages').toEqual(['zones_t']);
    expect(await db.vacuumIfGrown?.(), 'just measured').toEqual([]);
    const measured = await pages();
    await updateAll();
    await updateAll();
    const grown = await pages();
    expect(grown, 'two updates of every row: the old versions kept').toBeGreaterThan(measured * 2);
    expect(await db.vacuumIfGrown?.()).toEqual(['zones_t']);
    await updateAll();
    expect(await pages(), 'the space freed takes the next update').toBe(grown);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM zones_t WHERE version = 3'))[0].n).toBe(20_000);
  });
});
