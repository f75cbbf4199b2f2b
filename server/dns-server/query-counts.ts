import type { AnswerCode, Transport } from '#core/wire/analytics.ts';
import { floorTo, STEP_MS, type AnalyticsStep } from '#core/analytics/buckets.ts';
import type { Queryable } from '../db/database.ts';
import { startPollLoop } from '../support/poll-loop.ts';

/**
 * Query analytics, counted where the name server answers (contract: Analytics). Each answer adds one to its zone's
 * bucket of the current minute in memory (a few map look-ups, no I/O); every `flushMs`, and on stop, the buckets are
 * added to `dns_query_counts` in one statement, as the minute's, the hour's and the day's rows (an upsert adds, so the
 * counts of every instance sum and survive restarts). A bucket holds counts and at most 100 (name, type, answer)
 * entries a minute per zone, the rest summed as `other`: never a client address.
 */

/** What one answer is counted as, once its zone is known; kept beside a cached UDP answer so a cache hit counts too. */
export interface Tally {
  zone: string;
  /** The name asked, relative to the zone ('@', 'www'). */
  name: string;
  type: string;
  rcode: AnswerCode;
  dnssecOk: boolean;
}

export const NAMES_PER_MINUTE = 100;
/** Zones' buckets per upsert statement (three rows each: the minute's, the hour's, the day's). */
const BUCKETS_PER_STATEMENT = 1000;
/**
 * Between two statements of one flush, the loop is left to the name server for this many times the last statement's
 * length. PGlite runs each statement on the main thread, where cold zones and the UDP threads' misses are answered:
 * 100,000 zones asked in a minute made a flush of 100 statements that took 58% of the main thread for seconds, and
 * the rate over random zones fell from ~3,000 to ~450 a second. At 3, counting takes at most a quarter of it; the
 * answers counted meanwhile wait in memory and merge into their minutes' buckets (rounds never overlap).
 */
const YIELD_FACTOR = 3;
/**
 * Zones' minutes waiting to be written, at most. When the database writes behind the answers for long (PGlite at a
 * registrar's number of zones), the answers of a zone with no minute waiting are not counted, and the flush says how
 * many, so memory stays bounded (~500 bytes a zone's minute: 50,000 is ~25 MiB) rather than growing with the backlog.
 */
const PENDING_BUCKETS = 50_000;

interface Bucket {
  zone: string;
  /** Start of the minute, ms. */
  at: number;
  total: number;
  byType: Record<string, number>;
  byRcode: Record<string, number>;
  byTransport: Record<string, number>;
  dnssecOk: number;
  names: Map<string, number>;
  other: number;
}

export interface QueryCounter {
  /** Counts `n` answers (1 unless given: the UDP threads report their hits in batches). */
  count(tally: Tally, transport: Transport, n?: number): void;
  /** Adds what was counted to the database now; resolves when written (or when the write failed, keeping the counts for the next one). */
  flush(): Promise<void>;
  /** Flushes a last time and stops the timer. */
  stop(): Promise<void>;
}

/** A counter that counts nothing: analytics switched off (ANALYTICS_ENABLED=false). */
export const noCounting: QueryCounter = { count: () => {}, flush: async () => {}, stop: async () => {} };

const add = (map: Record<string, number>, key: string, n: number) => {
  map[key] = (map[key] ?? 0) + n;
};

const emptyBucket = (zone: string, at: number): Bucket => ({ zone, at, total: 0, byType: {}, byRcode: {}, byTransport: {}, dnssecOk: 0, names: new Map(), other: 0 });

/**
 * The key of a name entry: the name (a DNS name as asked holds no space), its type and its answer. Made once per
 * tally: a tally kept beside a cached answer is counted again at every hit, and the hit path is the hot one.
 */
const nameKeys = new WeakMap<Tally, string>();
const nameKey = (t: Tally) => {
  let key = nameKeys.get(t);
  if (key === undefined) nameKeys.set(t, (key = `${t.name} ${t.type} ${t.rcode}`));
  return key;
};

/** Adds one bucket's counts into another's. */
const merge = (into: Bucket, from: Bucket) => {
  into.total += from.total;
  for (const [k, n] of Object.entries(from.byType)) add(into.byType, k, n);
  for (const [k, n] of Object.entries(from.byRcode)) add(into.byRcode, k, n);
  for (const [k, n] of Object.entries(from.byTransport)) add(into.byTransport, k, n);
  into.dnssecOk += from.dnssecOk;
  into.other += from.other;
  // Roll-ups (and a minute put back after a failed write) keep every name the minutes kept.
  for (const [k, n] of from.names) into.names.set(k, (into.names.get(k) ?? 0) + n);
};

/** One statement for these buckets: their minute's rows and the hour's and day's they roll up into. */
async function writeRows(db: Queryable, taken: Bucket[]): Promise<void> {
  // The minute's rows, and the hour's and day's they roll up into, merged here so no row appears twice in the statement.
  const rows = new Map<string, Bucket & { step: AnalyticsStep }>();
  for (const b of taken) {
    for (const step of ['1m', '1h', '1d'] as const) {
      const at = floorTo(b.at, step);
      const key = `${step} ${at} ${b.zone}`;
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { ...emptyBucket(b.zone, at), step }));
      merge(row, b);
    }
  }
  const json = JSON.stringify(
    [...rows.values()].map((r) => ({
      zone_name: r.zone,
      step: r.step,
      at: new Date(r.at).toISOString(),
      total: r.total,
      by_type: r.byType,
      by_rcode: r.byRcode,
      by_transport: r.byTransport,
      dnssec_ok: r.dnssecOk,
      names: Object.fromEntries(r.names),
      other: r.other,
    })),
  );
  await db.query(
    `INSERT INTO dns_query_counts AS c (zone_name, step, at, total, by_type, by_rcode, by_transport, dnssec_ok, names, other)
     SELECT zone_name, step, at, total, by_type, by_rcode, by_transport, dnssec_ok, names, other
       FROM jsonb_to_recordset($1::jsonb) AS r(zone_name text, step text, at timestamptz, total bigint, by_type jsonb, by_rcode jsonb, by_transport jsonb, dnssec_ok bigint, names jsonb, other bigint)
     ON CONFLICT (zone_name, step, at) DO UPDATE SET
       total = c.total + excluded.total,
       by_type = jsonb_add_counts(c.by_type, excluded.by_type),
       by_rcode = jsonb_add_counts(c.by_rcode, excluded.by_rcode),
       by_transport = jsonb_add_counts(c.by_transport, excluded.by_transport),
       dnssec_ok = c.dnssec_ok + excluded.dnssec_ok,
       names = jsonb_add_counts(c.names, excluded.names),
       other = c.other + excluded.other`,
    [json],
  );
}

export function queryCounter(db: Queryable, options: { flushMs: number; keepDays: number; now?: () => number; onError?: (error: Error) => void; pendingBuckets?: number }): QueryCounter {
  const now = options.now ?? Date.now;
  const pendingBuckets = options.pendingBuckets ?? PENDING_BUCKETS;
  /** Answers not counted since the last flush: their zone's minute would have passed the bound. */
  let uncounted = 0;
  let buckets = new Map<string, Bucket>();
  // The current minute's bucket of each zone, found without building a key (most answers fall in the current
  // minute); emptied whenever `buckets` is taken by a flush or the minute turns.
  let minute = -1;
  let current = new Map<string, Bucket>();
  let pruned = 0;
  let writing: Promise<void> = Promise.resolve();

  const bucketOf = (zone: string, at: number) => {
    const key = `${at} ${zone}`;
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = emptyBucket(zone, at)));
    return bucket;
  };


  /**
   * Writes the buckets taken, a bounded number per statement: a registrar's instance counts answers for many thousands
   * of zones a minute, and one statement of them all would hold its whole JSON at once (an embedded database's memory
   * keeps its high-water mark). Answers the buckets not written when a statement failed (the failed one's and the rest).
   */
  async function write(taken: Map<string, Bucket>): Promise<void> {
    if (taken.size === 0) return;
    const all = [...taken.values()];
    for (let at = 0; at < all.length; at += BUCKETS_PER_STATEMENT) {
      const started = performance.now();
      try {
        await writeRows(db, all.slice(at, at + BUCKETS_PER_STATEMENT));
      } catch (error) {
        throw Object.assign(error instanceof Error ? error : new Error(String(error)), { unwritten: all.slice(at) });
      }
      if (at + BUCKETS_PER_STATEMENT < all.length) await new Promise((resume) => setTimeout(resume, (performance.now() - started) * YIELD_FACTOR));
    }
    const t = now();
    if (t - pruned >= STEP_MS['1h']) {
      pruned = t;
      await db.query('DELETE FROM dns_query_counts WHERE at < $1', [new Date(floorTo(t, '1d') - options.keepDays * STEP_MS['1d']).toISOString()])
        // The counts are written: a failed prune is said, never taken for a failed write (which would write them twice).
        .catch((error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error))));
    }
  }

  const flush = (): Promise<void> => {
    if (uncounted > 0) {
      options.onError?.(new Error(`${uncounted} answers were not counted: ${pendingBuckets} zones' minutes were waiting for the database`));
      uncounted = 0;
    }
    const taken = buckets;
    buckets = new Map();
    current = new Map();
    writing = writing.then(() =>
      write(taken).catch((error: unknown) => {
        // What was not written is kept for the next flush: counted once, written once.
        const unwritten = (error as { unwritten?: Bucket[] }).unwritten ?? [...taken.values()];
        for (const b of unwritten) merge(bucketOf(b.zone, b.at), b);
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
      }),
    );
    return writing;
  };

  const flushing = startPollLoop(flush, { pollMs: options.flushMs, firstMs: options.flushMs });

  const currentBucket = (zone: string) => {
    const at = floorTo(now(), '1m');
    if (at !== minute) {
      minute = at;
      current = new Map();
    }
    let bucket = current.get(zone);
    if (bucket === undefined) {
      if (buckets.size >= pendingBuckets && !buckets.has(`${at} ${zone}`)) return undefined;
      current.set(zone, (bucket = bucketOf(zone, at)));
    }
    return bucket;
  };

  return {
    count(tally, transport, n = 1) {
      const bucket = currentBucket(tally.zone);
      if (bucket === undefined) {
        uncounted += n;
        return;
      }
      bucket.total += n;
      add(bucket.byType, tally.type, n);
      add(bucket.byRcode, tally.rcode, n);
      add(bucket.byTransport, transport, n);
      if (tally.dnssecOk) bucket.dnssecOk += n;
      const key = nameKey(tally);
      const had = bucket.names.get(key);
      if (had !== undefined) bucket.names.set(key, had + n);
      else if (bucket.names.size < NAMES_PER_MINUTE) bucket.names.set(key, n);
      else bucket.other += n;
    },
    flush,
    async stop() {
      await flushing.stop();
      await flush();
    },
  };
}
