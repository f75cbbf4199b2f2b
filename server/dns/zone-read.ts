import { managedMetadata, managedRecordsOf, type ManagedRecord, type ManagedSettings } from '#core/dns/managed.ts';
import { ancestorsOf } from '#core/dns/names.ts';
import type { RolloverPhase } from '#core/dns/rollover.ts';
import type { RecordLike } from '#core/dns/types.ts';
import type { DnsRecord, RecordType } from '#core/wire/dns.ts';
import type { Queryable } from '../db/database.ts';
import { publicView } from '../dnssec/keys.ts';
import { CompressedJson } from '../support/compressed-json.ts';

/** Reads of a zone: its records on the wire, and under the zone's lock the records a write's rules weigh. */

export interface RecordRow {
  id: string;
  zone_name: string;
  name: string;
  type: RecordType;
  class: string;
  ttl: number;
  rdata: string;
  metadata: unknown;
  comment: string;
  tags: string[];
  created_at: Date | string;
  updated_at: Date | string;
}
export interface ZoneRow {
  parked: boolean;
  forward_enabled: boolean;
  /** In redemption: only the "expired" holding page answers (migration 064). */
  expired?: boolean;
  created_at: Date | string;
  parked_at: Date | string | null;
  zone_version: string | null;
  /** The zone's public key while it is signed (DNSSEC), else null. */
  dnssec_public_key: string | null;
  /** An algorithm rollover under way: the new key and the phase (server/dnssec/rollover.ts). */
  dnssec_rollover?: { public_key: string; phase: RolloverPhase } | string | null;
}
export type StoredRecord = RecordLike & { id: string };

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

export function toWire(row: RecordRow): DnsRecord {
  return {
    id: row.id,
    zoneName: row.zone_name,
    name: row.name,
    type: row.type,
    class: row.class,
    ttl: row.ttl,
    rdata: row.rdata,
    metadata: row.metadata ?? null,
    comment: row.comment,
    tags: row.tags,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function managedToWire(zoneName: string, record: ManagedRecord, since: string): DnsRecord {
  return { id: record.id, zoneName, name: record.name, type: record.type, class: 'IN', ttl: record.ttl, rdata: record.rdata, metadata: managedMetadata(record), comment: '', tags: [], createdAt: since, updatedAt: since };
}

/**
 * Parking's records while the zone is parked, the forwarder's while forwarded, DNSSEC's key records while signed:
 * served and listed, never stored.
 */
export function managedRecords(zoneName: string, zone: ZoneRow | null, settings: ManagedSettings): ManagedRecord[] {
  const rollover = typeof zone?.dnssec_rollover === 'string' ? (JSON.parse(zone.dnssec_rollover) as { public_key: string; phase: RolloverPhase }) : zone?.dnssec_rollover;
  const state = zone && {
    parked: zone.parked,
    forwarding: zone.forward_enabled,
    expired: zone.expired ?? false,
    dnssecKey: zone.dnssec_public_key ? publicView(zoneName, zone.dnssec_public_key) : null,
    dnssecRollover: rollover ? { key: publicView(zoneName, rollover.public_key), phase: rollover.phase } : null,
  };
  return managedRecordsOf(zoneName, state, settings);
}

const DNSSEC_PUBLIC_KEY =
  '(SELECT public_key FROM dnssec_keys WHERE zone_name = d.name) AS dnssec_public_key, ' +
  "(SELECT json_build_object('public_key', public_key, 'phase', phase) FROM dnssec_rollovers WHERE zone_name = d.name) AS dnssec_rollover";

/**
 * Recently read zones as wire JSON with its compressed forms, valid while domains.zone_version is unchanged: the
 * version changes in the same transaction as every write, so a reader in any process sees a new version as soon as
 * the write commits. One per service (Services.zoneCache), so two databases in one process never share one.
 */
export class ZoneCache {
  private readonly entries = new Map<string, { version: string; answer: CompressedJson }>();
  constructor(private readonly size = 16) {}
  get(zoneName: string) {
    return this.entries.get(zoneName);
  }
  remember(zoneName: string, version: string, answer: CompressedJson) {
    this.entries.delete(zoneName);
    this.entries.set(zoneName, { version, answer });
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
  }
}

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * Every record of the zone on the wire, as JSON text: the managed records first (parking's or the forwarder's, DNSSEC's), then stored ones in
 * the order written. The database builds the JSON itself (for a 10,000-record zone several times faster than
 * handing over rows), and the cache keeps the text and its compressed forms while the zone is unchanged, so a
 * repeated read costs one small query and no compression. The version and the records come from one statement, so
 * from one snapshot: a text is never kept under a version it does not belong to, whichever process wrote the zone.
 */
export async function zoneAnswer(q: Queryable, cache: ZoneCache, zoneName: string, settings: ManagedSettings): Promise<CompressedJson> {
  const cached = cache.get(zoneName);
  const [row] = await q.query<ZoneRow & { records: string | null; unchanged: boolean }>(
    `SELECT d.parked, d.forward_enabled, d.expired, d.created_at, d.parked_at, d.zone_version, ${DNSSEC_PUBLIC_KEY}, d.zone_version IS NOT NULL AND d.zone_version = $2::uuid AS unchanged,
       CASE WHEN d.zone_version IS NOT NULL AND d.zone_version = $2::uuid THEN NULL ELSE (
         SELECT json_agg(json_build_object(
           'id', id, 'zoneName', zone_name, 'name', name, 'type', type, 'class', class, 'ttl', ttl, 'rdata', rdata, 'metadata', metadata, 'comment', comment, 'tags', tags,
           'createdAt', to_char(created_at AT TIME ZONE 'UTC', ${ISO_UTC}), 'updatedAt', to_char(updated_at AT TIME ZONE 'UTC', ${ISO_UTC})
         ) ORDER BY seq)::text FROM dns_records WHERE zone_name = z.name) END AS records
     FROM (SELECT $1::text AS name) z LEFT JOIN domains d ON d.name = z.name`,
    [zoneName, cached?.version ?? null],
  );
  if (row.unchanged && cached) return cached.answer;
  const zone = row.created_at ? row : null;
  const since = zone ? iso(zone.parked_at ?? zone.created_at) : '';
  const parts = managedRecords(zoneName, zone, settings).map((r) => JSON.stringify(managedToWire(zoneName, r, since)));
  // json_agg answers "[...]" or NULL for no rows: splice its items after the managed ones.
  if (row.records) parts.push(row.records.slice(1, -1));
  const answer = new CompressedJson(`[${parts.join(',')}]`);
  if (zone?.zone_version) cache.remember(zoneName, zone.zone_version, answer);
  return answer;
}

/** The zone as records (see zoneAnswer). */
export async function listZone(q: Queryable, cache: ZoneCache, zoneName: string, settings: ManagedSettings): Promise<DnsRecord[]> {
  return JSON.parse((await zoneAnswer(q, cache, zoneName, settings)).text) as DnsRecord[];
}

/**
 * Locks the zone for this transaction and answers its row: every write of a zone takes this lock before it reads
 * anything the zone rules weigh, so two writes to one zone, from any process, check and change it one after the
 * other. The row answered is the newest committed (PostgreSQL re-reads a row it waited for), and the next
 * statement sees every write committed before the lock was granted.
 */
async function lockZone(q: Queryable, zoneName: string): Promise<ZoneRow | null> {
  const [row] = await q.query<ZoneRow>(`SELECT d.parked, d.forward_enabled, d.expired, d.created_at, d.parked_at, d.zone_version, ${DNSSEC_PUBLIC_KEY} FROM domains d WHERE d.name = $1 FOR UPDATE OF d`, [zoneName]);
  return row ?? null;
}

/** The names the zone rules weigh for these records: their own and every name above them; and new delegations. */
export function namesAround(records: RecordLike[]): { names: Set<string>; delegations: Set<string> } {
  const names = new Set<string>();
  const delegations = new Set<string>();
  for (const record of records) {
    names.add(record.name);
    for (const ancestor of ancestorsOf(record.name)) names.add(ancestor);
    if (record.type === 'NS' && record.name !== '@') delegations.add(record.name);
  }
  return { names, delegations };
}

/** The zone's row, locked (see lockZone), and the stored records at `names` or with one of `ids`. */
export async function readZoneState(q: Queryable, zoneName: string, names: Set<string>, ids: string[]): Promise<{ zone: ZoneRow | null; records: StoredRecord[] }> {
  // The lock first, in a statement of its own: a read in the same statement would use the snapshot taken before a
  // wait for the lock, and miss the records the previous holder wrote.
  const zone = await lockZone(q, zoneName);
  if (!zone || (names.size === 0 && ids.length === 0)) return { zone, records: [] };
  const records = await q.query<StoredRecord>(
    'SELECT id, name, type, rdata, ttl, comment, tags FROM dns_records WHERE zone_name = $1 AND (name = ANY($2::text[]) OR id = ANY($3::uuid[]))',
    [zoneName, [...names], ids],
  );
  return { zone, records };
}

const rowToLike = (row: Pick<RecordRow, 'id' | 'name' | 'type' | 'rdata' | 'ttl'>): RecordLike => ({ id: row.id, name: row.name, type: row.type, rdata: row.rdata, ttl: row.ttl });

/**
 * The stored records the zone rules can weigh for these records: the same names and the names above them
 * (CNAME, NS exclusivity, delegations), everything below a name that becomes a delegation, the stored
 * versions of updated and deleted records, and the managed records. Names already read (`known`) are not read again.
 */
export async function neighbourhood(
  q: Queryable,
  zoneName: string,
  touched: RecordLike[],
  storedById: Map<string, RecordLike>,
  managed: RecordLike[],
  known: { names: Set<string>; records: StoredRecord[] },
): Promise<RecordLike[]> {
  const { names, delegations } = namesAround(touched);
  const found = new Map<string, RecordLike>(storedById);
  for (const record of known.records) if (names.has(record.name)) found.set(record.id, record);
  const unread = [...names].filter((name) => !known.names.has(name));
  if (unread.length > 0) {
    const rows = await q.query<RecordRow>('SELECT id, name, type, rdata, ttl FROM dns_records WHERE zone_name = $1 AND name = ANY($2::text[])', [zoneName, unread]);
    for (const row of rows) found.set(row.id, rowToLike(row));
  }
  // One record below a new delegation is enough to refuse it; records this change moves or deletes do not count.
  for (const delegation of delegations) {
    const rows = await q.query<RecordRow>(
      `SELECT id, name, type, rdata, ttl FROM dns_records
       WHERE zone_name = $1 AND right(name, length($2::text) + 1) = '.' || $2::text AND NOT (id = ANY($3::uuid[])) LIMIT 1`,
      [zoneName, delegation, [...storedById.keys()]],
    );
    for (const row of rows) found.set(row.id, rowToLike(row));
  }
  // ALIAS loops (DNS_ALIAS_LOOP) follow ALIAS and CNAME records across the zone: read them when the change writes
  // either, the CNAMEs only when an ALIAS is, or will be, in the zone.
  const pointing = touched.some((r) => r.type === 'ALIAS' || r.type === 'CNAME');
  if (pointing) {
    const rows = await q.query<RecordRow>(
      `SELECT id, name, type, rdata, ttl FROM dns_records WHERE zone_name = $1 AND (type = 'ALIAS'
         OR (type = 'CNAME' AND ($2::boolean OR EXISTS (SELECT 1 FROM dns_records WHERE zone_name = $1 AND type = 'ALIAS'))))`,
      [zoneName, touched.some((r) => r.type === 'ALIAS')],
    );
    for (const row of rows) if (!found.has(row.id)) found.set(row.id, rowToLike(row));
  }
  return [...managed, ...found.values()];
}
