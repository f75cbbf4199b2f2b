import type { Database, Queryable } from '../db/database.ts';
import type { RolloverPhase } from '#core/dns/rollover.ts';
import type { StoredZoneKey } from '../dnssec/keys.ts';
import { VALIDITY_SECONDS } from '../dnssec/sign-zone.ts';
import { dropOtherEpochs, keepSignatures, storedSignatures } from '../dnssec/stored-signatures.ts';
import { FORM_RECORDS_BELOW, readZoneForm, writeZoneForm } from '../dns/zone-form.ts';
import { changesBetween } from '../history/changes-between.ts';
import { signedStep, signedSteps } from './signed-steps.ts';
import type { SnapshotCache } from './snapshot-cache.ts';
import type { ZoneRow, ZoneRows } from './zone-rows.ts';
import { buildSnapshot, buildSnapshotInSlices, patchSnapshot, zoneStateOf, type Dnssec, type FlattenedAddresses, type NameServerSettings, type StoredRecord, type ZoneSnapshot, type ZoneState } from './zone-snapshot.ts';

/** From this many stored records on, a zone is read page by page and built in slices (buildSnapshotInSlices). */
export const PAGED_AT = FORM_RECORDS_BELOW;
/** Rows per page of a big zone's read: PGlite holds the event loop about 33 ms for 1,000 (65 ms for 2,000). */
const PAGE = 1000;
/** At most this many names changed since the version in memory, and a big zone is patched rather than read whole. */
const PATCH_NAMES = 1000;

type Db = Queryable & Pick<Database, 'analyzeIfStale'>;

/** A JSON column as its value (PGlite and node-postgres may hand it over parsed or as text). */
const json = <T>(value: unknown, fallback: T): T => (typeof value === 'string' ? JSON.parse(value) : (value ?? fallback)) as T;

/** A zone's key row as loaded: the key, its signing epoch, and how absence is proven. */
type KeyRow = StoredZoneKey & { signing_epoch: string; denial: 'nsec' | 'nsec3'; opt_out: boolean; rollover: (StoredZoneKey & { phase: RolloverPhase }) | null };

/** What signing the zone needs, when it has a key: the version before (re-sign only what differs) and its stored signatures. */
function dnssecOf(db: Db, zone: string, key: KeyRow | null, previous: ZoneSnapshot | undefined): Dnssec | undefined {
  const epoch = key ? new Date(key.signing_epoch) : null;
  if (!key || !epoch) return undefined;
  return {
    key,
    epoch,
    denial: key.denial === 'nsec3' ? { kind: 'nsec3', optOut: key.opt_out } : { kind: 'nsec' },
    previous: previous?.signed ? { nodes: previous.nodes, signed: previous.signed } : undefined,
    store: { fresh: [] },
    rollover: key.rollover ? { key: key.rollover, phase: key.rollover.phase, store: { fresh: [] } } : undefined,
    known: () => storedSignatures(db, zone, Math.floor(epoch.getTime() / 1000) + VALIDITY_SECONDS),
  };
}

/**
 * The names the changes of a zone from serial `from` to `to` touched, and the apex (its SOA moved), from its
 * history; null when the history cannot say (a gap) or they are too many to patch.
 */
async function namesChangedSince(db: Db, zone: string, from: number, to: number): Promise<Set<string> | null> {
  const changes = await changesBetween(db, zone, from, to);
  if (!changes) return null;
  const names = new Set(['@']);
  for (const { facts } of changes) for (const change of facts.changes) for (const record of [change.before, change.after]) if (record) names.add(record.name);
  return names.size <= PATCH_NAMES ? names : null;
}

/**
 * A big zone's records a page at a time, in written order, between other queries: when it changed meanwhile (its
 * version moved), the pages may mix two versions, and the caller reads it again.
 */
async function* pagesOf(db: Db, zone: string) {
  // Its records and signatures are read a page at a time, by index order, which needs the planner to know
  // how big the tables have grown (an embedded database has no autovacuum to tell it).
  await db.analyzeIfStale?.(['dns_records', 'dnssec_signatures']);
  let after = 0;
  for (;;) {
    const page = await db.query<StoredRecord & { seq: number | string }>('SELECT name, type, ttl, rdata, seq FROM dns_records WHERE zone_name = $1 AND seq > $2 ORDER BY seq LIMIT $3', [zone, after, PAGE]);
    if (page.length > 0) yield page;
    if (page.length < PAGE) return;
    after = Number(page[page.length - 1].seq);
  }
}

/** Signatures kept with the zone: ours stored, or another instance's taken where it stored first. */
async function storeSignatures(db: Db, zone: string, snapshot: ZoneSnapshot, dnssec: Dnssec | undefined) {
  if (!snapshot.signed || !dnssec?.store) return;
  try {
    // Earlier epochs' go first, while they are all the zone has: afterwards finding none meant scanning every new
    // row (140 ms of the event loop at 100,000 records).
    if (!dnssec.previous || dnssec.previous.signed.expiration !== snapshot.signed.expiration) await dropOtherEpochs(db, zone, snapshot.signed.expiration);
    if (dnssec.store.fresh.length > 0) await keepSignatures(db, zone, snapshot.signed, dnssec.store.fresh);
    if (snapshot.signed.also && dnssec.rollover?.store?.fresh.length) await keepSignatures(db, zone, snapshot.signed.also, dnssec.rollover.store.fresh);
  } catch (error) {
    console.error(`DNSSEC: the signatures of ${zone} could not be stored`, error);
  }
}

/** Writes the forms of zones built from their records, one at a time per zone, in the background. */
function formWriter(db: Db) {
  const writing = new Map<string, Promise<void>>();
  return {
    write(zone: string) {
      if (writing.has(zone)) return;
      const done = writeZoneForm(db, zone)
        .catch((error: unknown) => console.error(`DNS: the form of ${zone} could not be written`, error))
        .finally(() => writing.delete(zone));
      writing.set(zone, done);
    },
    settle: async () => void (await Promise.all(writing.values())),
  };
}

/**
 * The snapshot builder of the zone source (zone-source.ts): reads a zone and builds the snapshot the name server
 * answers from. It keeps each signed or big zone as last built: the next build of a signed one re-signs only what
 * changed, a big one is patched from it, and either is answered while its next version is made.
 */
export function snapshotBuilder(db: Db, settings: NameServerSettings, latest: SnapshotCache, rows: ZoneRows) {
  /** The zone as last built, when it is signed or big (and still in the cache). */
  const previousOf = (zone: string) => {
    const kept = latest.peek(zone);
    return kept?.basis !== undefined ? kept.snapshot : undefined;
  };
  const forms = formWriter(db);
  /** Zones being signed anew on a worker thread: their previous snapshot is answered meanwhile, if there is one. */
  const bulk = new Set<string>();
  /** Per signed zone, what each recent change did to its NSEC records and RRSIGs (IXFR sends these). */
  const steps = signedSteps();

  /**
   * A big zone that changed since this instance last built it is patched: the names its history says changed are
   * read again and the rest is shared with that version (and a signed one re-signs only those names). Else it is
   * read a page at a time and built in slices.
   */
  async function buildBig(zone: string, previous: ZoneSnapshot | undefined, state: ZoneState, basis: string, dnssec: Dnssec | undefined, flattened: FlattenedAddresses): Promise<ZoneSnapshot> {
    const names = previous && latest.peek(zone)?.basis === basis && previous.serial < state.serial ? await namesChangedSince(db, zone, previous.serial, state.serial) : null;
    if (previous && names) {
      const records = await db.query<StoredRecord>('SELECT name, type, ttl, rdata FROM dns_records WHERE zone_name = $1 AND name = ANY($2::text[]) ORDER BY seq', [zone, [...names]]);
      return patchSnapshot(previous, names, state, records, settings, dnssec, flattened);
    }
    try {
      return await buildSnapshotInSlices(zone, state, pagesOf(db, zone), settings, dnssec, flattened, () => bulk.add(zone));
    } finally {
      bulk.delete(zone);
    }
  }

  /** Kept: a signed zone (the next change re-signs only what differs) and a big one (answered while it is signed anew). */
  function remember(zone: string, snapshot: ZoneSnapshot, previous: ZoneSnapshot | undefined, big: boolean, basis: string) {
    // What signing this change changed (NSEC records, RRSIGs), for IXFR: from the snapshot before, once stored bytes are in.
    if (snapshot.signed && previous?.signed && snapshot.serial !== previous.serial) steps.keep(zone, signedStep(previous, snapshot));
    // Kept as not yet current: the version tracker makes it current unless a change raced its read (zone-versions.ts).
    if (snapshot.signed || big) latest.set(zone, snapshot, false, basis);
  }

  /**
   * The zone's snapshot as the database holds it now, or null when the zone is not there. `onAttempt` is told as
   * each read begins: a big zone that changed while it was read is read again (up to three times).
   */
  async function build(zone: string, onAttempt: () => void, attempt = 0, given?: ZoneRow): Promise<ZoneSnapshot | null> {
    onAttempt();
    const row = given ?? (await rows.read([zone]));
    if (!row) return null;
    const form = row.form ? readZoneForm(row.form) : null;
    const key = json<KeyRow | null>(row.dnssec_key, null);
    const previous = previousOf(zone);
    const dnssec = dnssecOf(db, zone, key, previous);
    const flattened = (form?.flattened ?? json<FlattenedAddresses>(row.flattened, [])) as FlattenedAddresses;
    const state = zoneStateOf(row);
    // What a version is built on besides its records: a change of any of these builds the next one whole. The
    // domain's creation too: a name released and registered again starts a new history, from serial 1.
    const basis = JSON.stringify([row.created, state.parked, state.forwarding, state.expired, flattened, key?.public_key ?? null, key?.signing_epoch ?? null, key?.denial ?? null, key?.opt_out ?? null, key?.rollover?.public_key ?? null, key?.rollover?.phase ?? null]);
    const big = Number(row.record_count) >= PAGED_AT;
    let snapshot: ZoneSnapshot;
    if (!big) {
      snapshot = buildSnapshot(zone, state, (form?.records ?? json<StoredRecord[]>(row.records, [])) as StoredRecord[], settings, dnssec, flattened);
      // A zone made before forms were, or whose form a change outdated outside the pipeline: its form is written now.
      if (!form && !key) forms.write(zone);
    } else {
      snapshot = await buildBig(zone, previous, state, basis, dnssec, flattened);
      const [now] = await db.query<{ version: string }>('SELECT zone_version::text AS version FROM domains WHERE name = $1', [zone]);
      if (String(now?.version) !== state.version && attempt < 3) return build(zone, onAttempt, attempt + 1);
    }
    await storeSignatures(db, zone, snapshot, dnssec);
    remember(zone, snapshot, previous, big, basis);
    return snapshot;
  }

  return {
    build,
    /** Waits for the forms being written (before the database closes). */
    settle: forms.settle,
    /** The zone as last built, when it is signed or big. */
    previous: previousOf,
    /** Whether the zone is being signed anew on the worker right now. */
    signingAnew: (zone: string) => bulk.has(zone),
    /** The DNSSEC side of the changes from serial `from` to `to` of a signed zone, or null when this instance lacks one. */
    signedSteps: (zone: string, from: number, to: number) => steps.between(zone, from, to),
  };
}
