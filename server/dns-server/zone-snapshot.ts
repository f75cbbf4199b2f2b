import { parkingRecords } from '../../src/core/dns/parking.ts';
import type { RecordType } from '../../src/core/wire/dns.ts';
import type { Queryable } from '../db/database.ts';

/** One record set: the name's records of one type. A set takes the TTL of its first record (RFC 2181 §5.2). */
export interface RecordSet {
  type: RecordType;
  ttl: number;
  rdatas: string[];
}

/** A zone as the name server answers it: stored records, parking's while parked, and the provider's SOA and NS. */
export interface ZoneSnapshot {
  zone: string;
  serial: number;
  version: string;
  /** Relative names ('@' = apex) to their record sets. */
  nodes: Map<string, Map<RecordType, RecordSet>>;
  /** Names that exist without records of their own (empty non-terminals, RFC 4592 §2.2.2). */
  interior: Set<string>;
}

export interface NameServerSettings {
  nameservers: string[];
  /** SOA timers: negative answers are cached for `minimum` seconds (RFC 2308). */
  soa: { refresh: number; retry: number; expire: number; minimum: number; ttl: number };
  nsTtl: number;
}

export const DEFAULT_SOA = { refresh: 3600, retry: 600, expire: 1209600, minimum: 60, ttl: 3600 };

export function soaRdata(zone: string, serial: number, settings: NameServerSettings): string {
  const { refresh, retry, expire, minimum } = settings.soa;
  return `${settings.nameservers[0]} hostmaster.${zone}. ${serial} ${refresh} ${retry} ${expire} ${minimum}`;
}

export function buildSnapshot(
  zone: string,
  state: { serial: number; version: string; parked: boolean },
  records: Array<{ name: string; type: RecordType; ttl: number; rdata: string }>,
  settings: NameServerSettings,
): ZoneSnapshot {
  const nodes = new Map<string, Map<RecordType, RecordSet>>();
  const add = (name: string, type: RecordType, ttl: number, rdata: string) => {
    let node = nodes.get(name);
    if (!node) nodes.set(name, (node = new Map()));
    const set = node.get(type);
    if (!set) node.set(type, { type, ttl, rdatas: [rdata] });
    else if (!set.rdatas.includes(rdata)) set.rdatas.push(rdata);
  };
  add('@', 'SOA', settings.soa.ttl, soaRdata(zone, state.serial, settings));
  for (const ns of settings.nameservers) add('@', 'NS', settings.nsTtl, ns);
  if (state.parked) for (const r of parkingRecords(zone)) add(r.name, r.type, r.ttl, r.rdata);
  for (const r of records) if (!(r.name === '@' && (r.type === 'SOA' || r.type === 'NS'))) add(r.name, r.type, r.ttl, r.rdata);
  const interior = new Set<string>();
  for (const name of nodes.keys()) {
    for (let dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
      const above = name.slice(dot + 1);
      if (!nodes.has(above)) interior.add(above);
    }
  }
  return { zone, serial: state.serial, version: state.version, nodes, interior };
}

/**
 * Zones read through to the database on every query, kept in memory while their version is unchanged. Every
 * write changes `domains.zone_version` in its own transaction, so the one small query per DNS query that reads
 * the version sees a change the moment it commits, on every instance: no cache is ever left to expire.
 */
export function zoneSource(db: Queryable, settings: NameServerSettings) {
  const cache = new Map<string, ZoneSnapshot>();
  return {
    /** The zone this service holds that is the closest enclosing zone of `qname` (lowercase, no final dot), or null. */
    async find(qname: string): Promise<ZoneSnapshot | null> {
      const labels = qname.split('.');
      const candidates = labels.map((_, i) => labels.slice(i).join('.')).filter((n) => n.includes('.'));
      if (candidates.length === 0) return null;
      const [row] = await db.query<{ name: string; version: string | null }>(
        'SELECT name, zone_version::text AS version FROM domains WHERE name = ANY($1::text[]) ORDER BY length(name) DESC LIMIT 1',
        [candidates],
      );
      if (!row) return null;
      const cached = cache.get(row.name);
      if (cached && cached.version === String(row.version)) return cached;
      return this.load(row.name);
    },
    /** Reads a zone whole, version, serial and records from one statement (one snapshot). */
    async load(zone: string): Promise<ZoneSnapshot | null> {
      const [row] = await db.query<{ version: string | null; serial: number | string; parked: boolean; records: unknown }>(
        `SELECT d.zone_version::text AS version, d.zone_serial AS serial, d.parked,
           (SELECT json_agg(json_build_object('name', name, 'type', type, 'ttl', ttl, 'rdata', rdata) ORDER BY created_at, id)
              FROM dns_records WHERE zone_name = d.name) AS records
         FROM domains d WHERE d.name = $1`,
        [zone],
      );
      if (!row) return null;
      const records = (typeof row.records === 'string' ? JSON.parse(row.records) : (row.records ?? [])) as Parameters<typeof buildSnapshot>[2];
      const snapshot = buildSnapshot(zone, { serial: Number(row.serial), version: String(row.version), parked: row.parked }, records, settings);
      cache.set(zone, snapshot);
      return snapshot;
    },
  };
}
export type ZoneSource = ReturnType<typeof zoneSource>;
