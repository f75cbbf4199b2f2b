import type { DnssecRecordType } from '../../src/core/dns/dnssec.ts';
import { dnssecApexRecords } from '../../src/core/dns/dnssec-records.ts';
import { managedRecordsOf, type ManagedSettings } from '../../src/core/dns/managed.ts';
import { ancestorsOf, parentName } from '../../src/core/dns/names.ts';
import type { RecordType } from '../../src/core/wire/dns.ts';
import type { Database, Queryable } from '../db/database.ts';
import { publicView, signingKey, type StoredZoneKey } from '../dnssec/keys.ts';
import { signZone, type PreviousSigning, type SignedZone } from '../dnssec/sign-zone.ts';

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

export function buildSnapshot(
  zone: string,
  state: { serial: number; version: string; parked: boolean; forwarding: boolean; expired?: boolean },
  records: Array<{ name: string; type: RecordType; ttl: number; rdata: string }>,
  settings: NameServerSettings,
  dnssec?: { key: StoredZoneKey; epoch: Date; previous?: PreviousSigning },
  /** The ALIAS targets' addresses as last resolved (server/zones/alias.ts), answered at the ALIASes' names. */
  flattened: Array<{ name: string; type: 'A' | 'AAAA'; ttl: number; rdata: string }> = [],
): ZoneSnapshot {
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
  if (!state.expired) {
    for (const r of records) if (r.type !== 'ALIAS' && !(r.name === '@' && (r.type === 'SOA' || r.type === 'NS'))) add(r.name, r.type, r.ttl, r.rdata);
    for (const r of flattened) add(r.name, r.type, r.ttl, r.rdata);
  }
  if (dnssec) for (const r of dnssecApexRecords(publicView(zone, dnssec.key.public_key))) add(r.name, r.type, r.ttl, r.rdata, r.wire);
  const interior = new Set<string>();
  for (const name of nodes.keys()) {
    for (let above = parentName(name); above !== null; above = parentName(above)) if (!nodes.has(above)) interior.add(above);
  }
  // Negative answers are cached for the SOA's minimum, and so are the NSEC records that prove them (RFC 9077).
  const signed = dnssec
    ? signZone(zone, nodes, signingKey(zone, dnssec.key), { epoch: dnssec.epoch, nsecTtl: Math.min(settings.soa.minimum, settings.soa.ttl), previous: dnssec.previous })
    : null;
  return { zone, serial: state.serial, version: state.version, nodes, interior, signed };
}

const ZONE_CHANNEL = 'namefi_zone';

/**
 * Zones kept in memory and dropped the moment they change. Every write of a zone changes `domains.zone_version`
 * and bumps the serial in its transaction, and a trigger announces the zone on the channel `namefi_zone` at commit
 * (PostgreSQL LISTEN/NOTIFY, also in PGlite): every instance drops its copy at once, so a query is answered from
 * memory without asking the database. Until the subscription is up, or after it broke, each query reads the
 * zone's version through to the database instead (one small query) and reloads the zone when it changed.
 */
export function zoneSource(db: Queryable & Pick<Database, 'listen'>, settings: NameServerSettings) {
  const cache = new Map<string, ZoneSnapshot>();
  /** Each signed zone as last signed (its sets and signatures), so the next load re-signs only what changed. */
  const signatures = new Map<string, PreviousSigning>();
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

  async function load(zone: string): Promise<ZoneSnapshot | null> {
    const started = generation;
    const [row] = await db.query<{ version: string | null; serial: number | string; parked: boolean; forward_enabled: boolean; expired: boolean; records: unknown; flattened: unknown; dnssec_key: StoredZoneKey | string | null }>(
      `SELECT d.zone_version::text AS version, d.zone_serial AS serial, d.parked, d.forward_enabled, d.expired,
         (SELECT json_build_object('public_key', public_key, 'private_key', private_key, 'signing_epoch', signing_epoch) FROM dnssec_keys WHERE zone_name = d.name) AS dnssec_key,
         (SELECT json_agg(json_build_object('name', name, 'type', type, 'ttl', ttl, 'rdata', rdata) ORDER BY created_at, id)
            FROM dns_records WHERE zone_name = d.name) AS records,
         (SELECT json_agg(json_build_object('name', name, 'type', type, 'ttl', ttl, 'rdata', rdata) ORDER BY name, type, rdata)
            FROM alias_addresses WHERE zone_name = d.name) AS flattened
       FROM domains d WHERE d.name = $1`,
      [zone],
    );
    if (!row) return null;
    const records = (typeof row.records === 'string' ? JSON.parse(row.records) : (row.records ?? [])) as Parameters<typeof buildSnapshot>[2];
    const key = (typeof row.dnssec_key === 'string' ? JSON.parse(row.dnssec_key) : row.dnssec_key) as (StoredZoneKey & { signing_epoch: string }) | null;
    const dnssec = key ? { key, epoch: new Date(key.signing_epoch), previous: signatures.get(zone) } : undefined;
    const flattened = (typeof row.flattened === 'string' ? JSON.parse(row.flattened) : (row.flattened ?? [])) as NonNullable<Parameters<typeof buildSnapshot>[5]>;
    const snapshot = buildSnapshot(zone, { serial: Number(row.serial), version: String(row.version), parked: row.parked, forwarding: row.forward_enabled, expired: row.expired }, records, settings, dnssec, flattened);
    if (snapshot.signed) signatures.set(zone, { nodes: snapshot.nodes, signed: snapshot.signed });
    else signatures.delete(zone);
    if (generation === started) cache.set(zone, snapshot);
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
        return cache.get(zone) ?? load(zone);
      }
      const [row] = await db.query<{ name: string; version: string | null }>(
        'SELECT name, zone_version::text AS version FROM domains WHERE name = ANY($1::text[]) ORDER BY length(name) DESC LIMIT 1',
        [candidates],
      );
      if (!row) return null;
      const cached = cache.get(row.name);
      if (cached?.version === String(row.version)) return cached;
      return load(row.name);
    },
    load,
  };
}
export type ZoneSource = ReturnType<typeof zoneSource>;
