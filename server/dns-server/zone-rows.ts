import type { Queryable } from '../db/database.ts';
import type { StoredZoneKey } from '../dnssec/keys.ts';
import { FORM_RECORDS_BELOW } from '../dns/zone-form.ts';

/** A zone's row as read for a build: its state, key, form, and its records and ALIAS addresses when it has no form. */
export type ZoneRow = {
  name: string;
  version: string | null;
  serial: number | string;
  parked: boolean;
  forward_enabled: boolean;
  expired: boolean;
  record_count: number | string;
  created: string;
  /** The zone's form of its current version (server/dns/zone-form.ts), or null. */
  form: string | null;
  records: unknown;
  flattened: unknown;
  dnssec_key: StoredZoneKey | string | null;
  /** Whether any zone of this service lies below this one (migration 091): none, and every name under it is its. */
  has_below: boolean;
};

/** Reads asked for together at most: one statement's worth of zones (a few hundred KiB of rows at most). */
const BATCH = 256;
/** A read asked for this soon after the last statement is taken as part of a burst and waits a turn for company. */
const BURST_MS = 5;

/**
 * For each list of candidates asked ($1 the names, $2 which list each is of: candidateParams), the longest that is a
 * zone (`d`, first per list with DISTINCT ON), and its form of its current version (`f`) when it has one.
 */
const HOLDING_ZONES = `FROM unnest($1::text[], $2::int[]) AS q(name, asked)
       JOIN domains d ON d.name = q.name
       LEFT JOIN zone_forms f ON f.zone_name = d.name AND f.version IS NOT DISTINCT FROM d.zone_version
      ORDER BY q.asked, length(d.name) DESC`;
/** The lists of candidates as HOLDING_ZONES takes them: every name, and the index of its list. */
const candidateParams = (asked: string[][]): [string[], number[]] => [asked.flat(), asked.flatMap((candidates, i) => candidates.map(() => i))];

/**
 * For each list of candidates (the names that could be the zone holding a name, longest first: `[zone]` for a zone
 * known), in one indexed read for them all: the row of the longest that is a zone (which zone holds the name, and
 * that zone, at once), with its state, its key, and its form when it has one of its current version. A statement
 * this plain costs PGlite little to plan: planning, not reading, was most of a cold zone's cost.
 */
async function readZoneRows(db: Queryable, asked: string[][]): Promise<Array<ZoneRow | undefined>> {
  const rows = await db.query<ZoneRow & { asked: number }>(
    `SELECT DISTINCT ON (q.asked) q.asked, d.name, d.zone_version::text AS version, d.zone_serial AS serial, d.parked, d.forward_enabled, d.expired, d.record_count,
            d.created_at::text AS created, f.form,
       (SELECT json_build_object('public_key', public_key, 'private_key', private_key, 'signing_epoch', signing_epoch, 'denial', denial, 'opt_out', nsec3_opt_out,
          'rollover', (SELECT json_build_object('public_key', public_key, 'private_key', private_key, 'phase', phase) FROM dnssec_rollovers WHERE zone_name = d.name)) FROM dnssec_keys WHERE zone_name = d.name) AS dnssec_key,
       d.has_below
       ${HOLDING_ZONES}`,
    candidateParams(asked),
  );
  const found: Array<ZoneRow | undefined> = asked.map(() => undefined);
  for (const { asked: i, ...row } of rows) found[i] = { ...row, records: null, flattened: null };
  await withRecords(db, found.filter((row): row is ZoneRow => row !== undefined && row.form === null));
  return found;
}

/** Zones without a form: their ALIAS addresses and, when small enough to read at once, their records. */
async function withRecords(db: Queryable, rows: ZoneRow[]): Promise<void> {
  if (rows.length === 0) return;
  const zones = [...new Set(rows.map((row) => row.name))];
  const small = [...new Set(rows.filter((row) => Number(row.record_count) < FORM_RECORDS_BELOW).map((row) => row.name))];
  const [records, flattened] = await Promise.all([
    small.length === 0 ? [] : db.query<{ zone: string; rows: unknown }>(
      `SELECT zone_name AS zone, json_agg(json_build_object('name', name, 'type', type, 'ttl', ttl, 'rdata', rdata) ORDER BY created_at, id) AS rows
         FROM dns_records WHERE zone_name = ANY($1::text[]) GROUP BY zone_name`,
      [small],
    ),
    db.query<{ zone: string; rows: unknown }>(
      `SELECT zone_name AS zone, json_agg(json_build_object('name', name, 'type', type, 'ttl', ttl, 'rdata', rdata) ORDER BY name, type, rdata) AS rows
         FROM alias_addresses WHERE zone_name = ANY($1::text[]) GROUP BY zone_name`,
      [zones],
    ),
  ]);
  // Several names of one zone asked in one batch are several rows of it: each gets the zone's records.
  const recordsOf = new Map(records.map((r) => [r.zone, r.rows]));
  const flattenedOf = new Map(flattened.map((r) => [r.zone, r.rows]));
  for (const row of rows) {
    row.records = recordsOf.get(row.name) ?? null;
    row.flattened = flattenedOf.get(row.name) ?? null;
  }
}

/** The zone holding a name, and its form compiled for the UDP threads when it has one for the settings asked (`compiledRows`). */
export type CompiledRow = { name: string; has_below: boolean; compiled: Buffer | null };

/**
 * For each list of candidates, as readZoneRows: the zone's name, whether any zone lies below it, and its form compiled
 * for the UDP threads under the settings tagged `tag` (compiled-form.ts) when it has one of its current version (a
 * signed zone has none: turning DNSSEC on is a change, whose form is not written, server/dns/zone-form.ts). Only
 * those three columns: PGlite's parsing of a row's columns, a bytea's above all (~50 µs for a
 * registrar's zone, against ~12 as base64 text), was most of a cold zone's read.
 */
async function readCompiledRows(db: Queryable, asked: string[][], tag: string): Promise<Array<CompiledRow | undefined>> {
  const rows = await db.query<{ asked: number; name: string; has_below: boolean; compiled: string | null }>(
    `SELECT DISTINCT ON (q.asked) q.asked, d.name,
       CASE WHEN f.compiled_for = $3 THEN encode(f.compiled, 'base64') END AS compiled,
       d.has_below
       ${HOLDING_ZONES}`,
    [...candidateParams(asked), tag],
  );
  const found: Array<CompiledRow | undefined> = asked.map(() => undefined);
  for (const { asked: i, name, has_below, compiled } of rows) found[i] = { name, has_below, compiled: compiled === null ? null : Buffer.from(compiled, 'base64') };
  return found;
}

/**
 * Reads of lists of candidates made in batches: a read asked for alone goes at once, and in a burst the reads go
 * together in one statement, after the loop's next turn of I/O (setImmediate runs once the datagrams that were
 * waiting have been read), so a burst of cold zones costs one statement per batch rather than one each. With PGlite
 * each statement is the main thread's own time and holds the loop while it runs: the queries that arrive meanwhile
 * are read in the next turn and go together.
 */
function batchedReads<R>(readAll: (asked: string[][]) => Promise<Array<R | undefined>>) {
  let waiting: Array<{ candidates: string[]; done: (row: R | undefined) => void; fail: (error: unknown) => void }> = [];
  let scheduled = false;
  /** When the last statement ended: a read asked for within BURST_MS of it is part of a burst. */
  let lastRead = -Infinity;

  async function drain() {
    const batch = waiting.slice(0, BATCH);
    waiting = waiting.slice(BATCH);
    try {
      const rows = await readAll(batch.map((b) => b.candidates));
      batch.forEach((b, i) => b.done(rows[i]));
    } catch (error) {
      for (const b of batch) b.fail(error);
    }
    lastRead = performance.now();
    if (waiting.length > 0) setImmediate(() => void drain());
    else scheduled = false;
  }

  return (candidates: string[]): Promise<R | undefined> => {
    if (candidates.length === 0) return Promise.resolve(undefined);
    return new Promise((done, fail) => {
      waiting.push({ candidates, done, fail });
      if (scheduled) return;
      scheduled = true;
      // Idle, a read goes at once (no turn of the loop added to a lone cold query); in a burst, after the turn's I/O.
      if (performance.now() - lastRead > BURST_MS) void drain();
      else setImmediate(() => void drain());
    });
  };
}

/** Zone rows read in batches (batchedReads). */
export function zoneRows(db: Queryable) {
  return {
    /** The row of the longest of `candidates` that is a zone (see readZoneRows), or undefined when none is. */
    read: batchedReads((asked) => readZoneRows(db, asked)),
  };
}

/** The zones holding names, with their compiled forms under the settings tagged `tag`, read in batches (readCompiledRows). */
export function compiledRows(db: Queryable, tag: string) {
  return batchedReads((asked) => readCompiledRows(db, asked, tag));
}
export type ZoneRows = ReturnType<typeof zoneRows>;
