import { serialQueue } from '../support/serial-queue.ts';

/**
 * One small interface over the two databases the service runs on: embedded PGlite (a file-backed PostgreSQL in
 * DATA_DIR, nothing to install) and a real PostgreSQL server through `pg` when DATABASE_URL is set.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}
export interface Database extends Queryable {
  /** Runs fn in one transaction: all or nothing. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  exec(sql: string): Promise<void>;
  /**
   * Runs fn while holding a database-wide lock named `key`, so that instances sharing the database do it one at a
   * time (start-up work on a shared chain). fn uses the database as usual; the lock is held on a connection of its own.
   */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * LISTEN on a channel: `onNotify` gets each NOTIFY payload once its transaction commits (any process), `onLost`
   * when the subscription broke and notifications may have been missed. Answers how to stop listening.
   */
  listen?(channel: string, onNotify: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>>;
  /**
   * Brings the planner's statistics of these tables up to date where autovacuum would have: PGlite only, which runs
   * PostgreSQL without its background workers (a PostgreSQL server's autovacuum does this by itself). A reader about
   * to page through a big table calls it first.
   */
  analyzeIfStale?(tables: readonly string[]): Promise<void>;
  /**
   * Vacuums (and analyzes) each table that has grown by more than a fifth since it was last measured, as autovacuum
   * would: PGlite only, where nothing else ever does. Answers the tables vacuumed. The service runs it on its upkeep
   * loop (service.ts).
   */
  vacuumIfGrown?(): Promise<string[]>;
}

export async function openDatabase(options: { dataDir: string; url?: string }): Promise<Database> {
  if (options.url) return openPostgres(options.url);
  return openPglite(options.dataDir);
}

/**
 * PostgreSQL's default 128 MB of shared buffers lives in PGlite's WASM memory, which never shrinks: a local service
 * with thousands of rows, not millions, needs a fraction (~130 MiB less resident).
 */
const LEAN_PARAMS = ['-c', 'shared_buffers=8MB'];

async function openPglite(dataDir: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const memory = dataDir === 'memory://';
  if (!memory) await (await import('./pglite-template.ts')).seedDataDir(dataDir);
  const db = await PGlite.create({ dataDir: memory ? undefined : dataDir, startParams: [...PGlite.defaultStartParams, ...LEAN_PARAMS] });
  // PGlite runs one statement at a time; queue transactions so that a query from another request never lands inside one.
  const serial = serialQueue();
  return {
    query: <T>(sql: string, params: unknown[] = []) => serial(async () => (await db.query<T>(sql, params)).rows),
    exec: (sql) => serial(async () => void (await db.exec(sql))),
    transaction: (fn) => serial(() => db.transaction((tx) => fn({ query: async (sql, params = []) => (await tx.query(sql, params)).rows as never }))),
    // One process owns a PGlite directory, so there is no one to exclude.
    exclusive: (_key, fn) => fn(),
    close: () => serial(() => db.close()),
    listen: async (channel, onNotify) => {
      const stop = await serial(() => db.listen(channel, onNotify));
      return () => serial(() => stop());
    },
    analyzeIfStale: (tables) => serial(() => analyzeStale(db, tables)),
    async vacuumIfGrown() {
      const grown = await serial(() => grownTables(db, VACUUM_WHEN));
      // One table at a time, so the name server's reads go between them.
      for (const table of grown) await serial(() => withSmallSample(db, `VACUUM (ANALYZE) ${quoted(table)}`));
      return grown;
    },
  };
}

type PgliteHandle = { query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }>; exec: (sql: string) => Promise<unknown> };

/** How much a table grows before it is measured again: its pages against those VACUUM or ANALYZE last counted. */
type Growth = { by: number; pages: number };

/**
 * Vacuumed once grown by a fifth (and 128 pages). Without autovacuum, every updated row of a PGlite table leaves its
 * old version and its index entries behind for good: 100,000 zones registered through the pipeline (a row written,
 * then changed twice) left `domains` at 12,801 pages for 100,000 rows and `zone_forms` at 20,000, and a cold zone's
 * read of them made 5.4 page reads from the OS and 1.3 writes (index entries found dead, hint bits), against ~4 and
 * none once vacuumed (issue 50: a cold pass over the 100,000 zones at 9,096 q/s before, 13,635 after).
 */
const VACUUM_WHEN: Growth = { by: 1.2, pages: 128 };
/** Analyzed once grown by a tenth (and 16 pages): see analyzeStale. */
const ANALYZE_WHEN: Growth = { by: 1.1, pages: 16 };

/**
 * The public tables (of `among`, when given) grown past `growth` since last measured. The size on disk says so at
 * once; the activity counters autovacuum reads are flushed at most once a second, so they miss a write just made, and
 * PGlite keeps none across a restart.
 */
async function grownTables(db: PgliteHandle, growth: Growth, among?: readonly string[]): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND ($3::text[] IS NULL OR relname = ANY($3::text[]))
       AND pg_relation_size(oid) / current_setting('block_size')::int > greatest(relpages * $1::float8, relpages + $2::int) ORDER BY relname`,
    [growth.by, growth.pages, among ?? null],
  );
  return (rows as Array<{ relname: string }>).map((r) => r.relname);
}

const quoted = (table: string) => `"${table.replace(/"/g, '""')}"`;

/**
 * Runs VACUUM (ANALYZE) or ANALYZE with a small sample: the planner needs a table's size and spread, not fine
 * histograms (the default sample took 320 ms at 100,000 rows). Three statements, since VACUUM refuses a block.
 */
async function withSmallSample(db: PgliteHandle, statement: string) {
  await db.exec('SET default_statistics_target = 10');
  try {
    await db.exec(statement);
  } finally {
    await db.exec('RESET default_statistics_target');
  }
}

/**
 * Without autovacuum nothing ever analyzes a PGlite table, and the planner keeps guessing from an empty one: a page of
 * 1,000 records of a 100,000-record zone was read by fetching every later row and sorting them (about 100 ms of the
 * event loop per page, PGlite running on it) where the index gives them in order (2 ms). A table is analyzed once it
 * has grown by more than a tenth (and 16 pages) since the planner last measured it.
 */
async function analyzeStale(db: PgliteHandle, tables: readonly string[]) {
  for (const table of await grownTables(db, ANALYZE_WHEN, tables)) await withSmallSample(db, `ANALYZE ${quoted(table)}`);
}

async function openPostgres(url: string): Promise<Database> {
  const { default: pg } = await import('pg');
  // Keep numeric/bigint columns as JS numbers (cents fit easily) and timestamps as Date.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Row and advisory locks are how instances share work (zones, orders): a lock must end with its holder. A killed
    // instance's sockets close and PostgreSQL rolls back at once; keep-alive finds a vanished host, and the timeout
    // frees what a frozen instance holds.
    keepAlive: true,
    idle_in_transaction_session_timeout: 60_000,
  });
  // An idle connection that PostgreSQL ends (a restart, an administrator, the server stopping) is dropped from the
  // pool, which opens another on the next query; unheard, pg raises it as an uncaught error and the process dies.
  pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection (${(error as { code?: string }).code ?? error.message}); the next query opens another`));
  return {
    query: async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
    exec: async (sql) => void (await pool.query(sql)),
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({ query: async (sql, params = []) => (await client.query(sql, params)).rows as never });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    exclusive: async (key, fn) => {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
        try {
          return await fn();
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    // A connection of its own, outside the pool: LISTEN lasts as long as the session that ran it.
    listen: async (channel, onNotify, onLost) => {
      const client = new pg.Client({ connectionString: url, keepAlive: true });
      let stopped = false;
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      client.on('error', () => {
        if (!stopped) onLost();
      });
      client.on('end', () => {
        if (!stopped) onLost();
      });
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      return async () => {
        stopped = true;
        await client.end();
      };
    },
  };
}
