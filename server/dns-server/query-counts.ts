import type { AnswerCode, Transport } from '#core/wire/analytics.ts';
import { floorTo, STEP_MS, type AnalyticsStep } from '#core/analytics/buckets.ts';
import type { Queryable } from '../db/database.ts';
import { startPollLoop } from '../support/poll-loop.ts';

/**
 * Query analytics, counted where the name server answers (contract: Analytics). Each answer adds one to its zone's
 * minute in memory (packed: see `Packed`; a few map look-ups, no I/O); every `flushMs`, and on stop, the minutes are
 * added to `dns_query_counts`, a bounded number per statement, as the minute's, the hour's and the day's rows (an
 * upsert adds, so the counts of every instance sum and survive restarts). A bucket holds counts and at most 100 (name, type, answer)
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
 * many, so memory stays bounded rather than growing with the backlog: a zone's minute waits packed (see `Packed`),
 * ~50 bytes for one question asked, so 50,000 are a few MiB.
 */
const PENDING_BUCKETS = 50_000;
/** Distinct answer keys kept for sharing between zones' minutes (most zones are asked the same few questions). */
const SHARED_KEYS = 4096;

/**
 * A zone's minute as it waits in memory: answer keys and their counts, `[key, n, key, n, …]`, or the key alone for
 * one answer (no array: a zone asked once, the commonest case at a registrar's scale). A key is the answer's transport
 * (its first letter), DO bit, and name entry (`u0 www A NOERROR`), one string shared by every zone asked the same. A
 * registrar's instance counts a question or two for each of 100,000 zones a minute: an object per count and per
 * zone's minute had held ~600 bytes each, most of its memory; this holds ~50. At most NAMES_PER_MINUTE keys; the
 * answers past them are counted in the minute's `Overflow`. Arrays grow by `concat`, to their exact length (`push`
 * leaves room for 16 more: ~3× the bytes).
 */
type Packed = string | Array<string | number>;

/** A zone's minute's keys and counts, each. */
function forEachKey(counts: Packed, each: (key: string, n: number) => void) {
  if (typeof counts === 'string') return each(counts, 1);
  for (let i = 0; i < counts.length; i += 2) each(counts[i] as string, counts[i + 1] as number);
}

/** What a zone's minute counted past its NAMES_PER_MINUTE keys (rare: a zone asked many names in one minute). */
interface Overflow {
  other: number;
  byType: Record<string, number>;
  byRcode: Record<string, number>;
  byTransport: Record<string, number>;
  dnssecOk: number;
}

/** What a flush took to write: the zones' minutes waiting, per minute and zone, and their overflows by `${minute} ${zone}`. */
interface Taken {
  minutes: Map<number, Map<string, Packed>>;
  overflows: Map<string, Overflow>;
}

/** A zone's minute as one statement writes it: its counts, packed, and its overflow. */
interface ZoneMinute {
  zone: string;
  at: number;
  counts: Packed;
  over: Overflow | undefined;
}

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

const TRANSPORT_OF: Record<string, Transport> = { u: 'udp', t: 'tcp', d: 'doh' };

/** What a `Packed` key says: its name entry (`www A NOERROR`), type, answer, transport and DO bit. */
function keyParts(key: string) {
  const entry = key.slice(3);
  const [, type, rcode] = entry.split(' ');
  return { entry, type, rcode, transport: TRANSPORT_OF[key[0]], dnssecOk: key[1] === '1' };
}

/**
 * The key of a name entry as `Packed` keeps it (see there). Made once per tally and transport: a tally kept beside a
 * cached answer is counted again at every hit, and the hit path is the hot one.
 */
const answerKeys = new WeakMap<Tally, Partial<Record<Transport, string>>>();
function answerKey(t: Tally, transport: Transport, shared: Map<string, string>): string {
  let keys = answerKeys.get(t);
  if (keys === undefined) answerKeys.set(t, (keys = {}));
  let key = keys[transport];
  if (key === undefined) {
    key = `${transport[0]}${t.dnssecOk ? 1 : 0} ${t.name} ${t.type} ${t.rcode}`;
    const same = shared.get(key);
    if (same !== undefined) key = same;
    else if (shared.size < SHARED_KEYS) shared.set(key, key);
    keys[transport] = key;
  }
  return key;
}

const emptyOverflow = (): Overflow => ({ other: 0, byType: {}, byRcode: {}, byTransport: {}, dnssecOk: 0 });
const asOther = (n: number, type: string, rcode: string, transport: string, dnssecOk: boolean): Overflow => ({
  other: n,
  byType: { [type]: n },
  byRcode: { [rcode]: n },
  byTransport: { [transport]: n },
  dnssecOk: dnssecOk ? n : 0,
});
function addOverflow(into: Overflow, from: Overflow) {
  into.other += from.other;
  into.dnssecOk += from.dnssecOk;
  for (const [k, n] of Object.entries(from.byType)) add(into.byType, k, n);
  for (const [k, n] of Object.entries(from.byRcode)) add(into.byRcode, k, n);
  for (const [k, n] of Object.entries(from.byTransport)) add(into.byTransport, k, n);
}
const emptyBucket = (zone: string, at: number): Bucket => ({ zone, at, total: 0, byType: {}, byRcode: {}, byTransport: {}, dnssecOk: 0, names: new Map(), other: 0 });

/** Adds a zone's minute's counts into a row (its minute's, hour's or day's). */
function addInto(into: Bucket, from: ZoneMinute) {
  const { counts, over } = from;
  forEachKey(counts, (key, n) => {
    const { entry, type, rcode, transport, dnssecOk } = keyParts(key);
    into.total += n;
    add(into.byType, type, n);
    add(into.byRcode, rcode, n);
    add(into.byTransport, transport, n);
    if (dnssecOk) into.dnssecOk += n;
    into.names.set(entry, (into.names.get(entry) ?? 0) + n);
  });
  if (over === undefined) return;
  into.total += over.other;
  addOverflow(into, over);
}

/** One statement for these zones' minutes: their minute's rows and the hour's and day's they roll up into. */
async function writeRows(db: Queryable, taken: ZoneMinute[]): Promise<void> {
  // The minute's rows, and the hour's and day's they roll up into, merged here so no row appears twice in the statement.
  const rows = new Map<string, Bucket & { step: AnalyticsStep }>();
  for (const b of taken) {
    for (const step of ['1m', '1h', '1d'] as const) {
      const at = floorTo(b.at, step);
      const key = `${step} ${at} ${b.zone}`;
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { ...emptyBucket(b.zone, at), step }));
      addInto(row, b);
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

/**
 * The counts waiting in memory for the database, packed (see `Packed`): at most `bound` zones' minutes, past which a
 * zone with no minute waiting is not counted (`add` answers false).
 */
function waitingCounts(bound: number) {
  /** The zones' minutes waiting: per minute (its start, ms), per zone. */
  let minutes = new Map<number, Map<string, Packed>>();
  /** The overflow of the zones' minutes that have one, by `${minute} ${zone}`. */
  let overflows = new Map<string, Overflow>();
  let pending = 0;
  /** Answer keys shared between zones' minutes (answerKey), emptied at each flush so it follows what is asked. */
  let shared = new Map<string, string>();
  const zonesOf = (at: number) => {
    let zones = minutes.get(at);
    if (zones === undefined) minutes.set(at, (zones = new Map()));
    return zones;
  };

  /**
   * Adds n answers of `key` to a zone's minute; false when its minute is new and the bound is reached (unless `always`:
   * a minute put back after a failed write, whose answers were counted already). Past NAMES_PER_MINUTE keys, the
   * answers go to the minute's overflow, made by `asOther` only then.
   */
  function addTo(zone: string, at: number, key: string, n: number, asOther: () => Overflow, always = false): boolean {
    const zones = zonesOf(at);
    const counts = zones.get(zone);
    if (counts === undefined) {
      if (pending >= bound && !always) return false;
      pending += 1;
      zones.set(zone, n === 1 ? key : [key, n]);
      return true;
    }
    if (typeof counts === 'string') {
      zones.set(zone, counts === key ? [key, 1 + n] : [counts, 1, key, n]);
      return true;
    }
    for (let i = 0; i < counts.length; i += 2) {
      if (counts[i] === key) {
        counts[i + 1] = (counts[i + 1] as number) + n;
        return true;
      }
    }
    if (counts.length < 2 * NAMES_PER_MINUTE) zones.set(zone, counts.concat(key, n));
    else addOverflow(overflowOf(zone, at), asOther());
    return true;
  }

  const overflowOf = (zone: string, at: number) => {
    const key = `${at} ${zone}`;
    let over = overflows.get(key);
    if (over === undefined) overflows.set(key, (over = emptyOverflow()));
    return over;
  };

  /** Puts back what a write left when it failed (counted once, written once). */
  function putBack(taken: Taken) {
    for (const [at, zones] of taken.minutes) {
      for (const [zone, counts] of zones) {
        forEachKey(counts, (key, n) => {
          const { type, rcode, transport, dnssecOk } = keyParts(key);
          addTo(zone, at, key, n, () => asOther(n, type, rcode, transport, dnssecOk), true);
        });
        const over = taken.overflows.get(`${at} ${zone}`);
        if (over) addOverflow(overflowOf(zone, at), over);
      }
    }
  }

  /** Everything waiting, to write, and an empty start. */
  function take(): Taken {
    const taken = { minutes, overflows };
    minutes = new Map();
    overflows = new Map();
    shared = new Map();
    pending = 0;
    return taken;
  }

  return {
    /** Adds n answers of the tally to its zone's current minute: false when not counted (the bound). */
    add(tally: Tally, transport: Transport, at: number, n: number): boolean {
      return addTo(tally.zone, at, answerKey(tally, transport, shared), n, () => asOther(n, tally.type, tally.rcode, transport, tally.dnssecOk));
    },
    putBack,
    take,
  };
}

export function queryCounter(db: Queryable, options: { flushMs: number; keepDays: number; now?: () => number; onError?: (error: Error) => void; pendingBuckets?: number }): QueryCounter {
  const now = options.now ?? Date.now;
  const pendingBuckets = options.pendingBuckets ?? PENDING_BUCKETS;
  const waiting = waitingCounts(pendingBuckets);
  /** Answers not counted since the last flush: their zone's minute would have passed the bound. */
  let uncounted = 0;
  let pruned = 0;
  /** How long the last statement took: the loop is left to the name server YIELD_FACTOR times as long before the next. */
  let lastStatementMs = 0;
  let writing: Promise<void> = Promise.resolve();

  /**
   * Writes what was taken, a bounded number of zones' minutes per statement: a registrar's instance counts answers
   * for many thousands of zones a minute, and one statement of them all would hold its whole JSON at once (an
   * embedded database's memory keeps its high-water mark). Each statement's zones' minutes leave `taken` once
   * written, so what a failed statement left is what `taken` still holds.
   */
  async function write(taken: Taken): Promise<void> {
    let written = 0;
    for (const [at, zones] of taken.minutes) {
      while (zones.size > 0) {
        const batch: ZoneMinute[] = [];
        for (const [zone, counts] of zones) {
          batch.push({ zone, at, counts, over: taken.overflows.get(`${at} ${zone}`) });
          if (batch.length === BUCKETS_PER_STATEMENT) break;
        }
        if (written > 0) await new Promise((resume) => setTimeout(resume, lastStatementMs * YIELD_FACTOR));
        const started = performance.now();
        await writeRows(db, batch);
        lastStatementMs = performance.now() - started;
        for (const b of batch) zones.delete(b.zone);
        written += batch.length;
      }
    }
    const t = now();
    if (written > 0 && t - pruned >= STEP_MS['1h']) {
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
    const taken = waiting.take();
    writing = writing.then(() =>
      write(taken).catch((error: unknown) => {
        waiting.putBack(taken);
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
      }),
    );
    return writing;
  };

  const flushing = startPollLoop(flush, { pollMs: options.flushMs, firstMs: options.flushMs });

  return {
    count(tally, transport, n = 1) {
      if (!waiting.add(tally, transport, floorTo(now(), '1m'), n)) uncounted += n;
    },
    flush,
    async stop() {
      await flushing.stop();
      await flush();
    },
  };
}
