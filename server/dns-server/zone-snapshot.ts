import type { DnssecRecordType } from '../../src/core/dns/dnssec.ts';
import { dnssecApexRecords } from '../../src/core/dns/dnssec-records.ts';
import { managedRecordsOf, type ManagedSettings } from '../../src/core/dns/managed.ts';
import { ancestorsOf, parentName } from '../../src/core/dns/names.ts';
import type { RecordType } from '../../src/core/wire/dns.ts';
import type { Database, Queryable } from '../db/database.ts';
import { publicView, signingKey, type StoredZoneKey } from '../dnssec/keys.ts';
import { breathe, signZoneInWorker } from '../dnssec/sign-in-worker.ts';
import { reusable, signZone, VALIDITY_SECONDS, type PreviousSigning, type SignatureStore, type SignedZone } from '../dnssec/sign-zone.ts';
import { dropOtherEpochs, keepSignatures, storedSignatures } from '../dnssec/stored-signatures.ts';
import { signedStep, signedSteps } from './signed-steps.ts';

export type SetType = RecordType | DnssecRecordType;

/** One record set: the name's records of one type. A set takes the TTL of its first record (RFC 2181 §5.2). */
export interface RecordSet {
  type: SetType;
  ttl: number;
  rdatas: string[];
  /** Wire data, for DNSSEC's apex records (the other types are written from `rdatas`). */
  wire?: Uint8Array[];
}

/** A zone as the name server answers it: stored records, managed ones (parking's, the forwarder's), and the provider's SOA and NS. */
export interface ZoneSnapshot {
  zone: string;
  serial: number;
  version: string;
  /** Relative names ('@' = apex) to their record sets. */
  nodes: Map<string, Map<SetType, RecordSet>>;
  /** Names that exist without records of their own (empty non-terminals, RFC 4592 §2.2.2). */
  interior: Set<string>;
  /** The signatures and NSEC chain while the zone is signed (DNSSEC), else null. */
  signed: SignedZone | null;
}

export interface NameServerSettings extends ManagedSettings {
  nameservers: string[];
  /** SOA timers: negative answers are cached for `minimum` seconds (RFC 2308). */
  soa: { refresh: number; retry: number; expire: number; minimum: number; ttl: number };
  nsTtl: number;
}

export const DEFAULT_SOA = { refresh: 3600, retry: 600, expire: 1209600, minimum: 60, ttl: 3600 };

function soaRdata(zone: string, serial: number, settings: NameServerSettings): string {
  const { refresh, retry, expire, minimum } = settings.soa;
  return `${settings.nameservers[0]} hostmaster.${zone}. ${serial} ${refresh} ${retry} ${expire} ${minimum}`;
}

type StoredRecord = { name: string; type: RecordType; ttl: number; rdata: string };
type ZoneState = { serial: number; version: string; parked: boolean; forwarding: boolean; expired?: boolean };
type Dnssec = {
  key: StoredZoneKey;
  epoch: Date;
  previous?: PreviousSigning;
  /** Where the signatures made are collected (to be stored with the zone: server/dnssec/stored-signatures.ts). */
  store?: SignatureStore;
  /** The zone's stored signatures, read when it is signed whole on the worker (so only what no one signed is signed). */
  known?: () => AsyncIterable<Array<{ digest: string; rrsig: Uint8Array }>>;
};

/** A zone's nodes as they are filled: the provider's SOA and NS and the managed records first, then the stored ones. */
function nodeBuilder(zone: string, state: ZoneState, settings: NameServerSettings) {
  const nodes = new Map<string, Map<SetType, RecordSet>>();
  const add = (name: string, type: SetType, ttl: number, rdata: string, wire?: Uint8Array) => {
    let node = nodes.get(name);
    if (!node) nodes.set(name, (node = new Map()));
    const set = node.get(type);
    if (!set) node.set(type, { type, ttl, rdatas: [rdata], ...(wire ? { wire: [wire] } : {}) });
    else if (!set.rdatas.includes(rdata)) set.rdatas.push(rdata);
  };
  add('@', 'SOA', settings.soa.ttl, soaRdata(zone, state.serial, settings));
  for (const ns of settings.nameservers) add('@', 'NS', settings.nsTtl, ns);
  for (const r of managedRecordsOf(zone, state, settings)) add(r.name, r.type, r.ttl, r.rdata);
  // In redemption the zone answers only the holding page: its stored records are kept, not served, until a renewal.
  // An ALIAS is never answered as such: its target's addresses are, flattened into A and AAAA.
  const addStored = (records: StoredRecord[]) => {
    if (state.expired) return;
    for (const r of records) if (r.type !== 'ALIAS' && !(r.name === '@' && (r.type === 'SOA' || r.type === 'NS'))) add(r.name, r.type, r.ttl, r.rdata);
  };
  const finish = (flattened: Array<{ name: string; type: 'A' | 'AAAA'; ttl: number; rdata: string }>, dnssec: Dnssec | undefined) => {
    if (!state.expired) for (const r of flattened) add(r.name, r.type, r.ttl, r.rdata);
    if (dnssec) for (const r of dnssecApexRecords(publicView(zone, dnssec.key.public_key))) add(r.name, r.type, r.ttl, r.rdata, r.wire);
  };
  return { nodes, addStored, finish };
}

/** Names that exist without records of their own (empty non-terminals): every missing name above a node. */
function addInterior(interior: Set<string>, nodes: Map<string, unknown>, names: Iterable<string>) {
  for (const name of names) {
    for (let above = parentName(name); above !== null; above = parentName(above)) if (!nodes.has(above)) interior.add(above);
  }
}

// Negative answers are cached for the SOA's minimum, and so are the NSEC records that prove them (RFC 9077).
const nsecTtlOf = (settings: NameServerSettings) => Math.min(settings.soa.minimum, settings.soa.ttl);

export function buildSnapshot(
  zone: string,
  state: ZoneState,
  records: StoredRecord[],
  settings: NameServerSettings,
  dnssec?: Dnssec,
  /** The ALIAS targets' addresses as last resolved (server/zones/alias.ts), answered at the ALIASes' names. */
  flattened: Array<{ name: string; type: 'A' | 'AAAA'; ttl: number; rdata: string }> = [],
): ZoneSnapshot {
  const { nodes, addStored, finish } = nodeBuilder(zone, state, settings);
  addStored(records);
  finish(flattened, dnssec);
  const interior = new Set<string>();
  addInterior(interior, nodes, nodes.keys());
  const signed = dnssec ? signZone(zone, nodes, signingKey(zone, dnssec.key), { epoch: dnssec.epoch, nsecTtl: nsecTtlOf(settings), previous: dnssec.previous, store: dnssec.store }) : null;
  return { zone, serial: state.serial, version: state.version, nodes, interior, signed };
}

/** From this many names on, a zone signed without signatures to reuse is signed on a worker thread. */
const WORKER_NAMES = 2000;

/**
 * `buildSnapshot` for a big zone, in slices so the event loop keeps answering other zones: the stored records come
 * page by page, the nodes are walked a slice per turn, and a zone signed anew (no signatures of the same key and
 * epoch to reuse: a first load, a renewal) is signed on a worker thread. `onBulk` is told when that starts.
 */
export async function buildSnapshotInSlices(
  zone: string,
  state: ZoneState,
  pages: AsyncIterable<StoredRecord[]>,
  settings: NameServerSettings,
  dnssec: Dnssec | undefined,
  flattened: Array<{ name: string; type: 'A' | 'AAAA'; ttl: number; rdata: string }>,
  onBulk: () => void = () => {},
): Promise<ZoneSnapshot> {
  const { nodes, addStored, finish } = nodeBuilder(zone, state, settings);
  for await (const page of pages) {
    addStored(page);
    await breathe();
  }
  finish(flattened, dnssec);
  const interior = new Set<string>();
  const names = [...nodes.keys()];
  for (let i = 0; i < names.length; i += SLICE) {
    addInterior(interior, nodes, names.slice(i, i + SLICE));
    await breathe();
  }
  let signed: SignedZone | null = null;
  if (dnssec) {
    const key = signingKey(zone, dnssec.key);
    const options = { epoch: dnssec.epoch, nsecTtl: nsecTtlOf(settings) };
    if (reusable(dnssec.previous, key, options) || nodes.size < WORKER_NAMES) signed = signZone(zone, nodes, key, { ...options, previous: dnssec.previous, store: dnssec.store });
    else {
      onBulk();
      const store = dnssec.store ? { known: dnssec.known?.() ?? (async function* () {})(), fresh: dnssec.store.fresh } : undefined;
      signed = await signZoneInWorker(zone, nodes, { ...key, pkcs8: Buffer.from(dnssec.key.private_key, 'base64') }, options, store);
    }
  }
  return { zone, serial: state.serial, version: state.version, nodes, interior, signed };
}

const SLICE = 2000;
/** From this many stored records on, a zone is read page by page and built in slices (buildSnapshotInSlices). */
const PAGED_AT = 5000;
const PAGE = 2000;

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
export function zoneSource(db: Queryable & Pick<Database, 'listen'>, settings: NameServerSettings) {
  const cache = new Map<string, ZoneSnapshot>();
  /** Each signed zone as last signed, so the next load re-signs only what changed (and answers it while signing anew). */
  const latest = new Map<string, ZoneSnapshot>();
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

  async function loadOnce(zone: string, attempt = 0): Promise<ZoneSnapshot | null> {
    const started = generation;
    const [row] = await db.query<{ version: string | null; serial: number | string; parked: boolean; forward_enabled: boolean; expired: boolean; record_count: number | string; records: unknown; flattened: unknown; dnssec_key: StoredZoneKey | string | null }>(
      `SELECT d.zone_version::text AS version, d.zone_serial AS serial, d.parked, d.forward_enabled, d.expired, d.record_count,
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
    let snapshot: ZoneSnapshot;
    if (Number(row.record_count) < PAGED_AT) {
      const records = (typeof row.records === 'string' ? JSON.parse(row.records) : (row.records ?? [])) as StoredRecord[];
      snapshot = buildSnapshot(zone, state, records, settings, dnssec, flattened);
    } else {
      // A big zone is read a page at a time, in written order, between other queries: when it changed meanwhile
      // (its version moved), the pages may mix two versions, and it is read again.
      async function* pages() {
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
      const [now] = await db.query<{ version: string }>('SELECT zone_version::text AS version FROM domains WHERE name = $1', [zone]);
      if (String(now?.version) !== state.version && attempt < 3) return loadOnce(zone, attempt + 1);
    }
    if (snapshot.signed && dnssec?.store) {
      // Signatures kept with the zone: ours stored, or another instance's taken where it stored first.
      try {
        if (dnssec.store.fresh.length > 0) await keepSignatures(db, zone, snapshot.signed, dnssec.store.fresh);
        if (!dnssec.previous || dnssec.previous.signed.expiration !== snapshot.signed.expiration) await dropOtherEpochs(db, zone, snapshot.signed.expiration);
      } catch (error) {
        console.error(`DNSSEC: the signatures of ${zone} could not be stored`, error);
      }
    }
    // What signing this change changed (NSEC records, RRSIGs), for IXFR: from the snapshot before, once stored bytes are in.
    if (snapshot.signed && previous?.signed && snapshot.serial !== previous.serial) steps.keep(zone, signedStep(previous, snapshot));
    // Kept: a signed zone (the next change re-signs only what differs) and a big one (answered while it is signed anew).
    if (snapshot.signed || Number(row.record_count) >= PAGED_AT) latest.set(zone, snapshot);
    else latest.delete(zone);
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
          generation += 1;
          cache.delete(zone);
          announce(zone);
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
    /** The DNSSEC side of the changes from serial `from` to `to` of a signed zone, or null when this instance lacks one. */
    signedSteps: (zone: string, from: number, to: number) => steps.between(zone, from, to),
  };
}
export type ZoneSource = ReturnType<typeof zoneSource>;
