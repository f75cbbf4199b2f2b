import { randomUUID } from 'node:crypto';
import { fullName, relativeName, validateRecordName } from '../../src/core/dns/names.ts';
import { PARKING_METADATA, parkingRecords } from '../../src/core/dns/parking.ts';
import { validateRdata } from '../../src/core/dns/rdata.ts';
import { nonAsciiRdataProblem } from '../../src/core/dns/ascii-only.ts';
import { isAsciiText, NOT_ASCII_MESSAGE } from '../../src/core/wire/text.ts';
import { MAX_NAME_LENGTH, type RecordLike } from '../../src/core/dns/types.ts';
import { checkZoneChange, type ZoneViolation } from '../../src/core/dns/zone-rules.ts';
import type { DnsRecord, RecordType } from '../../src/core/wire/dns.ts';
import type { ZoneRule } from '../../src/core/wire/errors.ts';
import type { Queryable } from '../db/database.ts';
import { invalidInput, notFound } from '../http/errors.ts';

export const MAX_ZONE_RECORDS = 10_000;
export const DEFAULT_TTL = 3600;
export const DEFAULT_NAME = '@';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface RecordCreate {
  name?: string;
  type: RecordType;
  rdata: string;
  ttl?: number;
}
/** A partial update: absent fields keep their stored value. */
export interface RecordUpdate {
  id: string;
  type?: RecordType;
  name?: string;
  rdata?: string;
  ttl?: number;
}
export interface ZoneChangeRequest {
  creates?: RecordCreate[];
  updates?: RecordUpdate[];
  deletes?: string[];
}
export interface ApplyOptions {
  now: Date;
  /**
   * Where a record's errors land: `records` (the default) gives `records.2.rdata`; '' is a single-record
   * operation, whose paths are the plain field (`rdata`, `id`). Deleted ids of a batch land on `recordsIds.N`.
   */
  pathPrefix?: string;
}

interface RecordRow {
  id: string;
  zone_name: string;
  name: string;
  type: RecordType;
  class: string;
  ttl: number;
  rdata: string;
  metadata: unknown;
  created_at: Date | string;
  updated_at: Date | string;
}
interface ZoneRow {
  parked: boolean;
  created_at: Date | string;
  parked_at: Date | string | null;
  zone_version: string | null;
}
type Managed = RecordLike & { id: string; managed: true };

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

function toWire(row: RecordRow): DnsRecord {
  return {
    id: row.id,
    zoneName: row.zone_name,
    name: row.name,
    type: row.type,
    class: row.class,
    ttl: row.ttl,
    rdata: row.rdata,
    metadata: row.metadata ?? null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function managedToWire(zoneName: string, record: Managed, since: string): DnsRecord {
  return { id: record.id, zoneName, name: record.name, type: record.type, class: 'IN', ttl: record.ttl, rdata: record.rdata, metadata: { ...PARKING_METADATA }, createdAt: since, updatedAt: since };
}

const rowToLike = (row: Pick<RecordRow, 'id' | 'name' | 'type' | 'rdata' | 'ttl'>): RecordLike => ({ id: row.id, name: row.name, type: row.type, rdata: row.rdata, ttl: row.ttl });

/**
 * Locks the zone for this transaction and answers its row: every write of a zone takes this lock before it reads
 * anything the zone rules weigh, so two writes to one zone, from any process, check and change it one after the
 * other. The row answered is the newest committed (PostgreSQL re-reads a row it waited for), and the next
 * statement sees every write committed before the lock was granted.
 */
async function lockZone(q: Queryable, zoneName: string): Promise<ZoneRow | null> {
  const [row] = await q.query<ZoneRow>('SELECT parked, created_at, parked_at, zone_version FROM domains WHERE name = $1 FOR UPDATE', [zoneName]);
  return row ?? null;
}

function managedRecords(zoneName: string, zone: ZoneRow | null): Managed[] {
  return zone?.parked ? parkingRecords(zoneName) : [];
}

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * Every record of the zone on the wire, as JSON text: the parking records first when parked, then stored ones in
 * the order written. The database builds the JSON itself (for a 10,000-record zone several times faster than
 * handing over rows), and the text is kept while the zone is unchanged, so a repeated read costs one small query.
 * The version and the records come from one statement, so from one snapshot: a text is never kept under a version
 * it does not belong to, whichever process wrote the zone.
 */
export async function zoneJson(q: Queryable, zoneName: string): Promise<string> {
  const cached = zoneCache.get(zoneName);
  const [row] = await q.query<ZoneRow & { records: string | null; unchanged: boolean }>(
    `SELECT d.parked, d.created_at, d.parked_at, d.zone_version, d.zone_version IS NOT NULL AND d.zone_version = $2::uuid AS unchanged,
       CASE WHEN d.zone_version IS NOT NULL AND d.zone_version = $2::uuid THEN NULL ELSE (
         SELECT json_agg(json_build_object(
           'id', id, 'zoneName', zone_name, 'name', name, 'type', type, 'class', class, 'ttl', ttl, 'rdata', rdata, 'metadata', metadata,
           'createdAt', to_char(created_at AT TIME ZONE 'UTC', ${ISO_UTC}), 'updatedAt', to_char(updated_at AT TIME ZONE 'UTC', ${ISO_UTC})
         ) ORDER BY seq)::text FROM dns_records WHERE zone_name = z.name) END AS records
     FROM (SELECT $1::text AS name) z LEFT JOIN domains d ON d.name = z.name`,
    [zoneName, cached?.version ?? null],
  );
  if (row.unchanged && cached) return cached.text;
  const zone = row.created_at ? row : null;
  const since = zone ? iso(zone.parked_at ?? zone.created_at) : '';
  const parts = managedRecords(zoneName, zone).map((r) => JSON.stringify(managedToWire(zoneName, r, since)));
  // json_agg answers "[...]" or NULL for no rows: splice its items after the managed ones.
  if (row.records) parts.push(row.records.slice(1, -1));
  const text = `[${parts.join(',')}]`;
  if (zone?.zone_version) remember(zoneName, zone.zone_version, text);
  return text;
}

/** The zone as records (see zoneJson). */
export async function listZone(q: Queryable, zoneName: string): Promise<DnsRecord[]> {
  return JSON.parse(await zoneJson(q, zoneName)) as DnsRecord[];
}

/**
 * Recently read zones, valid while domains.zone_version is unchanged: the version changes in the same transaction
 * as every write, so a reader in any process sees a new version as soon as the write commits. Keyed by zone name;
 * versions are random, so two databases in one process never share one.
 */
const zoneCache = new Map<string, { version: string; text: string }>();
const ZONE_CACHE_SIZE = 16;

function remember(zoneName: string, version: string, text: string) {
  zoneCache.delete(zoneName);
  zoneCache.set(zoneName, { version, text });
  if (zoneCache.size > ZONE_CACHE_SIZE) zoneCache.delete(zoneCache.keys().next().value!);
}

/** Marks a zone changed (records or parking): call inside the writing transaction. */
export async function touchZone(q: Queryable, zoneName: string, recordDelta = 0): Promise<number | null> {
  const [row] = await q.query<{ record_count: number }>(
    'UPDATE domains SET record_count = record_count + $2, zone_version = gen_random_uuid() WHERE name = $1 RETURNING record_count',
    [zoneName, recordDelta],
  );
  return row?.record_count ?? null;
}

/** 'a.b.c' → ['b.c', 'c']. */
function ancestorsOf(name: string): string[] {
  if (name === '@') return [];
  const labels = name.split('.');
  return labels.slice(1).map((_, i) => labels.slice(i + 1).join('.'));
}

class Problems {
  fieldErrors: Record<string, string[]> = {};
  formErrors: string[] = [];
  rule?: ZoneRule;
  message?: string;
  add(path: string | null, message: string, rule?: ZoneRule) {
    if (path === null) this.formErrors.push(message);
    else (this.fieldErrors[path] ??= []).push(message);
    if (this.message === undefined) {
      this.message = message;
      this.rule = rule;
    }
  }
  get any() {
    return this.message !== undefined;
  }
  raise(): never {
    throw invalidInput(this.fieldErrors, { formErrors: this.formErrors, rule: this.rule, message: this.message });
  }
}

/**
 * Validates and applies a change to one zone inside the caller's transaction: record names and rdata (core rules,
 * stored forms), the ids (404 when not in the zone), managed records (read-only), the zone rules on the zone as it
 * would stand, then writes and keeps the zone's count (at most 10,000) and version. Loads only the records the rules
 * can touch, never the whole zone.
 * Answers the created records, then the updated ones, in the stored form. The caller checks ownership first.
 */
export async function applyZoneChange(q: Queryable, zoneName: string, request: ZoneChangeRequest, options: ApplyOptions): Promise<DnsRecord[]> {
  const creates = request.creates ?? [];
  const updates = request.updates ?? [];
  const deletes = request.deletes ?? [];
  const single = (options.pathPrefix ?? 'records') === '';
  const prefix = options.pathPrefix ?? 'records';
  const recordPath = (index: number, field?: string) => (single ? (field ?? null) : field ? `${prefix}.${index}.${field}` : `${prefix}.${index}`);
  const deletePath = (index: number) => (single ? 'id' : `recordsIds.${index}`);
  const now = options.now.toISOString();

  // 1. Each new record on its own: name and data.
  const problems = new Problems();
  const created: RecordLike[] = creates.map((input, index) => normalise(input.name ?? DEFAULT_NAME, input.type, input.rdata, input.ttl ?? DEFAULT_TTL, index));
  if (problems.any) problems.raise();

  // 2. Ids: every one must be in this zone (stored, or managed while parked). One query reads the zone's state, the
  //    stored records the ids name, and the records around every name known so far (a create's names are).
  const ids = [...new Set([...updates.map((u) => u.id), ...deletes])];
  const lookup = ids.filter((id) => UUID.test(id));
  const around = namesAround(created);
  const { zone, records: firstRead } = await readZoneState(q, zoneName, around.names, lookup);
  const managed = managedRecords(zoneName, zone);
  const managedById = new Map(managed.map((r) => [r.id, r]));
  const lookupSet = new Set(lookup.filter((id) => !managedById.has(id)));
  const storedById = new Map<string, RecordLike>();
  for (const row of firstRead) if (lookupSet.has(row.id)) storedById.set(row.id, row);
  const missing = ids.filter((id) => !storedById.has(id) && !managedById.has(id));
  if (missing.length > 0) {
    throw notFound(missing.length === 1 ? `No record ${missing[0]} in ${zoneName}` : `No records ${missing.join(', ')} in ${zoneName}`);
  }

  // 3. Managed records are read-only.
  updates.forEach((u, index) => {
    const record = managedById.get(u.id);
    if (record) problems.add(recordPath(index, 'id'), managedMessage(record, zoneName, 'changed'), 'DNS_MANAGED_RECORD');
  });
  deletes.forEach((id, index) => {
    const record = managedById.get(id);
    if (record) problems.add(deletePath(index), managedMessage(record, zoneName, 'deleted'), 'DNS_MANAGED_RECORD');
  });
  if (problems.any) problems.raise();

  // 4. Updates merged onto the stored records, then validated like new ones; one record changes once per request.
  const firstUpdate = new Map<string, number>();
  updates.forEach((u, index) => {
    const first = firstUpdate.get(u.id);
    if (first === undefined) firstUpdate.set(u.id, index);
    else problems.add(recordPath(index, 'id'), `This record is already changed by ${recordPath(first) ?? 'this request'}: change it once`);
  });
  if (problems.any) problems.raise();
  const updated = updates.map((u, index) => {
    const stored = storedById.get(u.id)!;
    return { ...normalise(u.name ?? stored.name, u.type ?? stored.type, u.rdata ?? stored.rdata, u.ttl ?? stored.ttl, index), id: u.id };
  });
  if (problems.any) problems.raise();

  // 5. Zone rules on the records this change can touch.
  const existing = await neighbourhood(q, zoneName, [...created, ...updated], storedById, managed, { names: around.names, records: firstRead });
  const violations = checkZoneChange({ zoneName, existing, change: { creates: created, updates: updated, deletes }, parked: zone?.parked ?? false });
  if (violations.length > 0) {
    for (const v of violations) problems.add(violationPath(v), v.message, v.rule);
    problems.raise();
  }

  // 6. Write.
  const removed = deletes.length > 0 ? await q.query('DELETE FROM dns_records WHERE zone_name = $1 AND id = ANY($2::uuid[]) RETURNING id', [zoneName, deletes]) : [];
  const answers: DnsRecord[] = [];
  const delta = created.length - removed.length;
  if (created.length > 0) {
    // The insert and the zone's count and version in one statement: a create is the most common write.
    const ids = created.map(() => randomUUID());
    const rows = await q.query<RecordRow & { zone_record_count: number | null }>(
      `WITH inserted AS (
         INSERT INTO dns_records (id, zone_name, name, type, ttl, rdata, created_at, updated_at)
         SELECT u.id, $1::text, u.name, u.type, u.ttl, u.rdata, $6::timestamptz, $6::timestamptz
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::int[], $7::text[], $8::int[]) AS u(id, name, type, ttl, rdata, ord)
         ORDER BY u.ord
         RETURNING id, zone_name, name, type, class, ttl, rdata, metadata, created_at, updated_at
       ), touched AS (
         UPDATE domains SET record_count = record_count + $9, zone_version = gen_random_uuid() WHERE name = $1 RETURNING record_count
       )
       SELECT inserted.*, (SELECT record_count FROM touched) AS zone_record_count FROM inserted`,
      [zoneName, ids, created.map((r) => r.name), created.map((r) => r.type), created.map((r) => r.ttl), now, created.map((r) => r.rdata), created.map((_, i) => i), delta],
    );
    checkRecordLimit(zoneName, rows[0]?.zone_record_count ?? null, delta, created.length);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) answers.push(toWire(byId.get(id)!));
  }
  for (const record of updated) {
    const [row] = await q.query<RecordRow>(
      `UPDATE dns_records SET name = $3, type = $4, rdata = $5, ttl = $6, updated_at = $7 WHERE zone_name = $1 AND id = $2
       RETURNING id, zone_name, name, type, class, ttl, rdata, metadata, created_at, updated_at`,
      [zoneName, record.id, record.name, record.type, record.rdata, record.ttl, now],
    );
    answers.push(toWire(row));
  }
  if (created.length === 0) await adjustRecordCount(q, zoneName, delta, 0);
  return answers;

  function normalise(name: string, type: RecordType, rdata: string, ttl: number, index: number): RecordLike {
    return normaliseRecord(zoneName, problems, (field) => recordPath(index, field), { name, type, rdata, ttl });
  }

  function violationPath(v: ZoneViolation): string | null {
    if (v.target.kind === 'delete') return deletePath(v.target.index);
    // A rule without a field of its own (parking) is about where the record sits: its name.
    return recordPath(v.target.index, v.field ?? 'name');
  }
}

/**
 * Keeps domains.record_count in step with a write, inside the same transaction, and refuses a zone over the limit.
 * The row update also serialises concurrent writers of one zone, so two batches cannot both squeeze under the limit.
 */
export async function adjustRecordCount(q: Queryable, zoneName: string, delta: number, adding = Math.max(0, delta)): Promise<void> {
  checkRecordLimit(zoneName, await touchZone(q, zoneName, delta), delta, adding);
}

function checkRecordLimit(zoneName: string, count: number | null, delta: number, adding: number): void {
  if (count !== null && delta > 0 && count > MAX_ZONE_RECORDS) {
    throw invalidInput({}, { formErrors: [`A zone holds at most ${MAX_ZONE_RECORDS.toLocaleString('en-US')} records; ${zoneName} has ${count - delta}, and this adds ${adding}`] });
  }
}

/** A record's name and data by the core rules, in their stored forms; problems land on `pathOf(field)`. */
function normaliseRecord(zoneName: string, problems: Problems, pathOf: (field: string) => string | null, record: Partial<RecordLike> & { name: string; ttl: number }): RecordLike {
  const { name, type, rdata, ttl } = record;
  // The core validators turn Unicode into A-labels for the dashboard; the service stores only what was sent.
  const checkedName = isAsciiText(name) ? validateRecordName(name, zoneName) : ({ ok: false, message: NOT_ASCII_MESSAGE } as const);
  if (!checkedName.ok) {
    const tooLong = fullName(relativeName(name, zoneName), zoneName).length > MAX_NAME_LENGTH;
    problems.add(pathOf('name'), checkedName.message, tooLong ? 'DNS_NAME_TOO_LONG' : undefined);
  }
  let data = rdata ?? '';
  if (type !== undefined && rdata !== undefined) {
    const unicode = nonAsciiRdataProblem(type, rdata);
    const checkedData = unicode ? ({ ok: false, message: unicode } as const) : validateRdata(type, rdata);
    if (checkedData.ok) data = checkedData.value;
    else problems.add(pathOf('rdata'), checkedData.message);
  }
  return { name: checkedName.ok ? checkedName.value : name, type: type!, rdata: data, ttl };
}

/**
 * The checks a request's records pass on their own, before anything is looked up (the contract's order: input,
 * then ownership, then ids, then zone rules): new records in full, and of an update what it names (its name, and
 * its data when it names the type too). applyZoneChange checks again, completely; this only answers earlier.
 */
export function checkRecordInputs(zoneName: string, request: ZoneChangeRequest, pathPrefix = 'records'): void {
  const problems = new Problems();
  const pathOf = (index: number) => (field: string) => (pathPrefix === '' ? field : `${pathPrefix}.${index}.${field}`);
  (request.creates ?? []).forEach((c, index) =>
    normaliseRecord(zoneName, problems, pathOf(index), { name: c.name ?? DEFAULT_NAME, type: c.type, rdata: c.rdata, ttl: c.ttl ?? DEFAULT_TTL }),
  );
  (request.updates ?? []).forEach((u, index) => {
    if (u.name !== undefined || (u.type !== undefined && u.rdata !== undefined)) {
      normaliseRecord(zoneName, problems, pathOf(index), { name: u.name ?? DEFAULT_NAME, type: u.type, rdata: u.type ? u.rdata : undefined, ttl: 0 });
    }
  });
  if (problems.any) problems.raise();
}

function managedMessage(record: RecordLike, zoneName: string, what: 'changed' | 'deleted'): string {
  return `The ${record.type} ${record.rdata} record at ${zoneName} belongs to parking and cannot be ${what}. Turn parking off to manage the apex records yourself.`;
}

/** The names the zone rules weigh for these records: their own and every name above them; and new delegations. */
function namesAround(records: RecordLike[]): { names: Set<string>; delegations: Set<string> } {
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
async function readZoneState(q: Queryable, zoneName: string, names: Set<string>, ids: string[]): Promise<{ zone: ZoneRow | null; records: Array<RecordLike & { id: string }> }> {
  // The lock first, in a statement of its own: a read in the same statement would use the snapshot taken before a
  // wait for the lock, and miss the records the previous holder wrote.
  const zone = await lockZone(q, zoneName);
  if (!zone || (names.size === 0 && ids.length === 0)) return { zone, records: [] };
  const records = await q.query<RecordLike & { id: string }>(
    'SELECT id, name, type, rdata, ttl FROM dns_records WHERE zone_name = $1 AND (name = ANY($2::text[]) OR id = ANY($3::uuid[]))',
    [zoneName, [...names], ids],
  );
  return { zone, records };
}

/**
 * The stored records the zone rules can weigh for these records: the same names and the names above them
 * (CNAME, NS exclusivity, delegations), everything below a name that becomes a delegation, the stored
 * versions of updated and deleted records, and the managed records. Names already read (`known`) are not read again.
 */
async function neighbourhood(
  q: Queryable,
  zoneName: string,
  touched: RecordLike[],
  storedById: Map<string, RecordLike>,
  managed: RecordLike[],
  known: { names: Set<string>; records: Array<RecordLike & { id: string }> },
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
  return [...managed, ...found.values()];
}
