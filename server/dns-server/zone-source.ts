import { ancestorsOf } from '#core/dns/names.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { StoredZoneKey } from '../dnssec/keys.ts';
import { VALIDITY_SECONDS } from '../dnssec/sign-zone.ts';
import { dropOtherEpochs, keepSignatures, storedSignatures } from '../dnssec/stored-signatures.ts';
import { changesBetween } from '../history/changes-between.ts';
import { signedStep, signedSteps } from './signed-steps.ts';
import { buildSnapshot, buildSnapshotInSlices, patchSnapshot, type Dnssec, type NameServerSettings, type StoredRecord, type ZoneSnapshot } from './zone-snapshot.ts';

/** From this many stored records on, a zone is read page by page and built in slices (buildSnapshotInSlices). */
const PAGED_AT = 5000;
/** Rows per page of a big zone's read: PGlite holds the event loop about 33 ms for 1,000 (65 ms for 2,000). */
const PAGE = 1000;
/** At most this many names changed since the version in memory, and a big zone is patched rather than read whole. */
const PATCH_NAMES = 1000;

const ZONE_CHANNEL = 'namefi_zone';

/**
 * Asked for a big zone this instance is signing for the first time (no earlier version of it in memory, e.g. just
 * after a start): answered SERVFAIL until it is signed, rather than held for the seconds signing takes.
 */
export class ZoneBeingSigned extends Error {
  constructor(zone: string) {
    super(`${zone} is being signed`);
  }
}

/**
 * Zones kept in memory and dropped the moment they change. Every write of a zone changes `domains.zone_version`
 * and bumps the serial in its transaction, and a trigger announces the zone on the channel `namefi_zone` at commit
 * (PostgreSQL LISTEN/NOTIFY, also in PGlite): every instance drops its copy at once, so a query is answered from
 * memory without asking the database. Until the subscription is up, or after it broke, each query reads the
 * zone's version through to the database instead (one small query) and reloads the zone when it changed.
 */
export function zoneSource(db: Queryable & Pick<Database, 'listen' | 'analyzeIfStale'>, settings: NameServerSettings) {
  const cache = new Map<string, ZoneSnapshot>();
  /**
   * Each signed or big zone as last built: the next load of a signed one re-signs only what changed, a big one is
   * patched from it, and either is answered while its next version is made.
   */
  const latest = new Map<string, ZoneSnapshot>();
  /** What each version in `latest` was built on besides its records (state, ALIAS addresses, key): see loadOnce. */
  const builtOn = new Map<string, string>();
  /** Zone names this service holds, while subscribed; null = ask the database per query. */
  let known: Set<string> | null = null;
  /** Bumped by every notification, so a load that raced a change is not kept. */
  let generation = 0;
  let stop: (() => Promise<void>) | null = null;
  let closing = false;
  /** Existence checks in flight, awaited on close so none outlives the database. */
  const checks = new Set<Promise<void>>();
  /** Told of every zone change announced (and of a lost subscription, as null): the packet cache, NOTIFY. */
  const changeListeners = new Set<(zone: string | null) => void>();
  const announce = (zone: string | null) => {
    for (const listener of changeListeners) listener(zone);
  };

  /** A zone changed: its snapshot and the answers made from it go (packet caches, UDP threads), and listeners are told (NOTIFY). */
  const changed = (zone: string) => {
    generation += 1;
    cache.delete(zone);
    announce(zone);
  };

  /** The zones a name may be in: itself and the names above it, of two labels or more ('a.b.c' -> a.b.c, b.c). */
  const candidatesOf = (qname: string) => [qname, ...ancestorsOf(qname)].filter((n) => n.includes('.'));

  /** Loads in flight, one per zone and generation: queries arriving meanwhile share it. */
  const loading = new Map<string, { generation: number; promise: Promise<ZoneSnapshot | null> }>();
  /** Zones being signed anew on a worker thread: their previous snapshot is answered meanwhile, if there is one. */
  const bulk = new Set<string>();
  /** Per signed zone, what each recent change did to its NSEC records and RRSIGs (IXFR sends these). */
  const steps = signedSteps();
  /** Big zones answered a version behind while their new version loads (whileSigning). */
  const behind = new Set<string>();

  function load(zone: string): Promise<ZoneSnapshot | null> {
    const current = loading.get(zone);
    if (current && current.generation === generation) return current.promise;
    const promise = loadOnce(zone).finally(() => {
      if (loading.get(zone)?.promise === promise) loading.delete(zone);
    });
    loading.set(zone, { generation, promise });
    return promise;
  }

  /** While a zone is signed anew on the worker, the snapshot it had (the zone keeps answering, a version behind). */
  const whileSigning = (zone: string) => {
    const previous = latest.get(zone);
    // A big zone answers its previous version while the new one is read and signed (a version behind for that long):
    // the load starts (or is joined) here, and the query does not wait for it.
    if (previous && previous.nodes.size >= PAGED_AT) {
      behind.add(zone);
      void load(zone).catch((error: unknown) => console.error(`DNS: loading ${zone} failed`, error));
      return previous;
    }
    if (!bulk.has(zone)) return undefined;
    if (!previous) throw new ZoneBeingSigned(zone);
    return previous;
  };

  /**
   * The names the changes of a zone from serial `from` to `to` touched, and the apex (its SOA moved), from its
   * history; null when the history cannot say (a gap) or they are too many to patch.
   */
  async function namesChangedSince(zone: string, from: number, to: number): Promise<Set<string> | null> {
    const changes = await changesBetween(db, zone, from, to);
    if (!changes) return null;
    const names = new Set(['@']);
    for (const { facts } of changes) for (const change of facts.changes) for (const record of [change.before, change.after]) if (record) names.add(record.name);
    return names.size <= PATCH_NAMES ? names : null;
  }

  async function loadOnce(zone: string, attempt = 0): Promise<ZoneSnapshot | null> {
    const started = generation;
    const [row] = await db.query<{ version: string | null; serial: number | string; parked: boolean; forward_enabled: boolean; expired: boolean; record_count: number | string; created: string; records: unknown; flattened: unknown; dnssec_key: StoredZoneKey | string | null }>(
      `SELECT d.zone_version::text AS version, d.zone_serial AS serial, d.parked, d.forward_enabled, d.expired, d.record_count, d.created_at::text AS created,
         (SELECT json_build_object('public_key', public_key, 'private_key', private_key, 'signing_epoch', signing_epoch) FROM dnssec_keys WHERE zone_name = d.name) AS dnssec_key,
         CASE WHEN d.record_count < $2 THEN (SELECT json_agg(json_build_object('name', name, 'type', type, 'ttl', ttl, 'rdata', rdata) ORDER BY created_at, id)
            FROM dns_records WHERE zone_name = d.name) END AS records,
         (SELECT json_agg(json_build_object('name', name, 'type', type, 'ttl', ttl, 'rdata', rdata) ORDER BY name, type, rdata)
            FROM alias_addresses WHERE zone_name = d.name) AS flattened
       FROM domains d WHERE d.name = $1`,
      [zone, PAGED_AT],
    );
    if (!row) return null;
    const key = (typeof row.dnssec_key === 'string' ? JSON.parse(row.dnssec_key) : row.dnssec_key) as (StoredZoneKey & { signing_epoch: string }) | null;
    const previous = latest.get(zone);
    const epoch = key ? new Date(key.signing_epoch) : null;
    const dnssec: Dnssec | undefined = key && epoch
      ? {
          key, epoch,
          previous: previous?.signed ? { nodes: previous.nodes, signed: previous.signed } : undefined,
          store: { fresh: [] },
          known: () => storedSignatures(db, zone, Math.floor(epoch.getTime() / 1000) + VALIDITY_SECONDS),
        }
      : undefined;
    const flattened = (typeof row.flattened === 'string' ? JSON.parse(row.flattened) : (row.flattened ?? [])) as Array<{ name: string; type: 'A' | 'AAAA'; ttl: number; rdata: string }>;
    const state = { serial: Number(row.serial), version: String(row.version), parked: row.parked, forwarding: row.forward_enabled, expired: row.expired };
    // What a version is built on besides its records: a change of any of these builds the next one whole. The
    // domain's creation too: a name released and registered again starts a new history, from serial 1.
    const basis = JSON.stringify([row.created, state.parked, state.forwarding, state.expired, flattened, key?.public_key ?? null, key?.signing_epoch ?? null]);
    let snapshot: ZoneSnapshot;
    if (Number(row.record_count) < PAGED_AT) {
      const records = (typeof row.records === 'string' ? JSON.parse(row.records) : (row.records ?? [])) as StoredRecord[];
      snapshot = buildSnapshot(zone, state, records, settings, dnssec, flattened);
    } else {
      // A big zone that changed since this instance last built it is patched: the names its history says changed
      // are read again and the rest is shared with that version (and a signed one re-signs only those names).
      const names = previous && builtOn.get(zone) === basis && previous.serial < state.serial ? await namesChangedSince(zone, previous.serial, state.serial) : null;
      if (previous && names) {
        const records = await db.query<StoredRecord>('SELECT name, type, ttl, rdata FROM dns_records WHERE zone_name = $1 AND name = ANY($2::text[]) ORDER BY seq', [zone, [...names]]);
        snapshot = patchSnapshot(previous, names, state, records, settings, dnssec, flattened);
      } else {
        // A big zone is read a page at a time, in written order, between other queries: when it changed meanwhile
        // (its version moved), the pages may mix two versions, and it is read again.
        async function* pages() {
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
        try {
          snapshot = await buildSnapshotInSlices(zone, state, pages(), settings, dnssec, flattened, () => bulk.add(zone));
        } finally {
          bulk.delete(zone);
        }
      }
      const [now] = await db.query<{ version: string }>('SELECT zone_version::text AS version FROM domains WHERE name = $1', [zone]);
      if (String(now?.version) !== state.version && attempt < 3) return loadOnce(zone, attempt + 1);
    }
    if (snapshot.signed && dnssec?.store) {
      // Signatures kept with the zone: ours stored, or another instance's taken where it stored first.
      try {
        // Earlier epochs' go first, while they are all the zone has: afterwards finding none meant scanning every new
        // row (140 ms of the event loop at 100,000 records).
        if (!dnssec.previous || dnssec.previous.signed.expiration !== snapshot.signed.expiration) await dropOtherEpochs(db, zone, snapshot.signed.expiration);
        if (dnssec.store.fresh.length > 0) await keepSignatures(db, zone, snapshot.signed, dnssec.store.fresh);
      } catch (error) {
        console.error(`DNSSEC: the signatures of ${zone} could not be stored`, error);
      }
    }
    // What signing this change changed (NSEC records, RRSIGs), for IXFR: from the snapshot before, once stored bytes are in.
    if (snapshot.signed && previous?.signed && snapshot.serial !== previous.serial) steps.keep(zone, signedStep(previous, snapshot));
    // Kept: a signed zone (the next change re-signs only what differs) and a big one (answered while it is signed anew).
    if (snapshot.signed || Number(row.record_count) >= PAGED_AT) {
      latest.set(zone, snapshot);
      builtOn.set(zone, basis);
    } else {
      latest.delete(zone);
      builtOn.delete(zone);
    }
    if (generation === started) cache.set(zone, snapshot);
    // Answers made from the version before (packet cache) go, and the secondaries are told again, of this version.
    if (behind.delete(zone)) announce(zone);
    return snapshot;
  }

  return {
    /** Subscribes to zone changes; without it (or when it breaks) every query checks the version in the database. */
    async subscribe(): Promise<void> {
      if (!db.listen) return;
      const lost = () => {
        known = null;
        cache.clear();
        announce(null);
      };
      stop = await db.listen(
        ZONE_CHANNEL,
        (zone) => {
          changed(zone);
          // A zone added or removed: read whether it exists (a changed zone stays known meanwhile).
          if (known && !closing) {
            const check = db
              .query<{ name: string }>('SELECT name FROM domains WHERE name = $1', [zone])
              .then((rows) => void (rows[0] ? known?.add(zone) : known?.delete(zone)))
              .catch(lost)
              .finally(() => checks.delete(check));
            checks.add(check);
          }
        },
        lost,
      );
      generation += 1;
      const rows = await db.query<{ name: string }>('SELECT name FROM domains');
      known = new Set(rows.map((r) => r.name));
      cache.clear();
      announce(null);
    },
    /** Calls `listener` with the zone's name whenever a zone changes (null: the subscription was lost). Answers how to stop. */
    onChange(listener: (zone: string | null) => void): () => void {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    async close(): Promise<void> {
      closing = true;
      await stop?.();
      await Promise.all(checks);
    },
    /** Whether zones are answered from memory (subscribed to changes). */
    get subscribed() {
      return known !== null;
    },
    /** The zone this service holds that is the closest enclosing zone of `qname` (lowercase, no final dot), or null. */
    async find(qname: string): Promise<ZoneSnapshot | null> {
      const candidates = candidatesOf(qname);
      if (candidates.length === 0) return null;
      if (known) {
        const zone = candidates.find((c) => known?.has(c));
        if (!zone) return null;
        return cache.get(zone) ?? whileSigning(zone) ?? load(zone);
      }
      const [row] = await db.query<{ name: string; version: string | null }>(
        'SELECT name, zone_version::text AS version FROM domains WHERE name = ANY($1::text[]) ORDER BY length(name) DESC LIMIT 1',
        [candidates],
      );
      if (!row) return null;
      const cached = cache.get(row.name);
      if (cached?.version === String(row.version)) return cached;
      return whileSigning(row.name) ?? load(row.name);
    },
    load,
    /**
     * A change this instance committed, taken at once rather than when its announcement arrives (which follows, and
     * does the same again): DNS UPDATE answers only once the change is served here (server/dns-server/keyed.ts).
     */
    changed,
    /** The DNSSEC side of the changes from serial `from` to `to` of a signed zone, or null when this instance lacks one. */
    signedSteps: (zone: string, from: number, to: number) => steps.between(zone, from, to),
  };
}
export type ZoneSource = ReturnType<typeof zoneSource>;
