import { randomUUID } from 'node:crypto';
import { isWeighed } from '../../src/core/dns/listed.ts';
import type { RecordLike } from '../../src/core/dns/types.ts';
import type { DnsRecord } from '../../src/core/wire/dns.ts';
import type { RecordChange } from '../../src/core/wire/history.ts';
import { authorOf, recordChange, type ChangeAuthor } from '../history/record-change.ts';
import type { Queryable, RequestContext } from '../http/context.ts';
import { invalidInput, notFound } from '../http/errors.ts';
import { requireOwnedDomain } from './domain-access.ts';
import type { ManagedSettings } from '../../src/core/dns/managed.ts';
import { managedSettings } from './managed-settings.ts';
import { managedRecords, namesAround, neighbourhood, readZoneState, toWire, type RecordRow } from './zone-read.ts';
import { checkRecords, checkRules, mergeUpdates, refuseManaged, type CheckedChange, type ZoneChangeRequest } from './zone-validate.ts';

/** Records one zone may hold unless ZONE_RECORD_LIMIT says otherwise (contract, Limits). */
export const DEFAULT_ZONE_RECORD_LIMIT = 100_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A signed DNS write, in the contract's order: the records on their own, then one transaction for ownership,
 * ids, the zone rules and the write itself, all or nothing. `pathPrefix`: see recordPaths.
 */
export async function writeZone(ctx: Pick<RequestContext, 'services' | 'principal' | 'operationId'>, zoneName: string, request: ZoneChangeRequest, pathPrefix: string): Promise<DnsRecord[]> {
  const { services, principal } = ctx;
  const change = checkRecords(zoneName, request, pathPrefix);
  return services.db.transaction(async (tx) => {
    await requireOwnedDomain(services, tx, zoneName, principal);
    return applyZoneChange(tx, change, { now: services.now(), author: authorOf(ctx.operationId, principal!), managed: managedSettings(services.config), recordLimit: services.config.ZONE_RECORD_LIMIT });
  });
}

/**
 * Applies a checked change to its zone inside the caller's transaction, after the caller checked ownership: the
 * ids (404 when not in the zone), managed records (read-only), the zone rules on the zone as it would stand, then
 * the write, keeping the zone's count (at most `recordLimit`) and version, and the zone's history entry for it. Loads
 * only the records the rules can touch, never the whole zone. Answers the created records, then the updated ones,
 * in the stored form. A new domain's initial records (one batch, into an empty zone) never reach a limit, which is at
 * least a batch: they keep the default.
 */
export async function applyZoneChange(q: Queryable, change: CheckedChange, options: { now: Date; author: ChangeAuthor; managed: ManagedSettings; recordLimit?: number }): Promise<DnsRecord[]> {
  const { zoneName, creates: created, updates, deletes } = change;

  // Ids: every one must be in this zone (stored, or managed while parked). One query reads the zone's state, the
  // stored records the ids name, and the records around every name known so far (a create's names are).
  const ids = [...new Set([...updates.map((u) => u.id), ...deletes])];
  const lookup = ids.filter((id) => UUID.test(id));
  const around = namesAround(created);
  const { zone, records: firstRead } = await readZoneState(q, zoneName, around.names, lookup);
  const managed = managedRecords(zoneName, zone, options.managed);
  const managedById = new Map(managed.map((r) => [r.id, r]));
  const lookupSet = new Set(lookup.filter((id) => !managedById.has(id)));
  const storedById = new Map<string, RecordLike>();
  for (const row of firstRead) if (lookupSet.has(row.id)) storedById.set(row.id, row);
  const missing = ids.filter((id) => !storedById.has(id) && !managedById.has(id));
  if (missing.length > 0) {
    throw notFound(missing.length === 1 ? `No record ${missing[0]} in ${zoneName}` : `No records ${missing.join(', ')} in ${zoneName}`);
  }

  refuseManaged(change, managedById);
  const updated = mergeUpdates(change, storedById);
  const existing = await neighbourhood(q, zoneName, [...created, ...updated], storedById, managed.filter(isWeighed), { names: around.names, records: firstRead });
  checkRules(change, { existing, parked: zone?.parked ?? false, forwarding: zone?.forward_enabled ?? false, updated });
  const { answers, changes } = await writeRecords(q, zoneName, { created, updated, deletes }, options.now.toISOString(), options.recordLimit ?? DEFAULT_ZONE_RECORD_LIMIT);
  await recordChange(q, zoneName, options.author, { changes }, options.now);
  return answers;
}

const RECORD_COLUMNS = 'id, zone_name, name, type, class, ttl, rdata, metadata, created_at, updated_at';

async function writeRecords(
  q: Queryable,
  zoneName: string,
  change: { created: RecordLike[]; updated: Array<RecordLike & { id: string }>; deletes: string[] },
  now: string,
  limit: number,
): Promise<{ answers: DnsRecord[]; changes: RecordChange[] }> {
  const { created, updated, deletes } = change;
  const removed = deletes.length > 0 ? await q.query<RecordRow>(`DELETE FROM dns_records WHERE zone_name = $1 AND id = ANY($2::uuid[]) RETURNING ${RECORD_COLUMNS}`, [zoneName, deletes]) : [];
  const changes: RecordChange[] = removed.map((row) => ({ op: 'delete', before: toWire(row), after: null }));
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
    checkRecordLimit(zoneName, rows[0]?.zone_record_count ?? null, delta, created.length, limit);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) answers.push(toWire(byId.get(id)!));
    for (const after of answers) changes.push({ op: 'create', before: null, after });
  }
  // The zone is locked (readZoneState): the rows read here are the ones the updates replace.
  const before = updated.length > 0 ? await q.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM dns_records WHERE zone_name = $1 AND id = ANY($2::uuid[])`, [zoneName, updated.map((r) => r.id)]) : [];
  const beforeById = new Map(before.map((row) => [row.id, toWire(row)]));
  for (const record of updated) {
    const [row] = await q.query<RecordRow>(
      `UPDATE dns_records SET name = $3, type = $4, rdata = $5, ttl = $6, updated_at = $7 WHERE zone_name = $1 AND id = $2
       RETURNING id, zone_name, name, type, class, ttl, rdata, metadata, created_at, updated_at`,
      [zoneName, record.id, record.name, record.type, record.rdata, record.ttl, now],
    );
    const after = toWire(row);
    answers.push(after);
    changes.push({ op: 'update', before: beforeById.get(record.id) ?? null, after });
  }
  if (created.length === 0) await adjustRecordCount(q, zoneName, delta, limit);
  return { answers, changes };
}

/** Marks a zone changed (records or parking): call inside the writing transaction. */
export async function touchZone(q: Queryable, zoneName: string, recordDelta = 0): Promise<number | null> {
  const [row] = await q.query<{ record_count: number }>(
    'UPDATE domains SET record_count = record_count + $2, zone_version = gen_random_uuid() WHERE name = $1 RETURNING record_count',
    [zoneName, recordDelta],
  );
  return row?.record_count ?? null;
}

/**
 * Keeps domains.record_count in step with a write, inside the same transaction, and refuses a zone over the limit.
 * The row update also serialises concurrent writers of one zone, so two batches cannot both squeeze under the limit.
 */
async function adjustRecordCount(q: Queryable, zoneName: string, delta: number, limit: number): Promise<void> {
  checkRecordLimit(zoneName, await touchZone(q, zoneName, delta), delta, 0, limit);
}

function checkRecordLimit(zoneName: string, count: number | null, delta: number, adding: number, limit: number): void {
  if (count !== null && delta > 0 && count > limit) {
    throw invalidInput({}, { formErrors: [`A zone holds at most ${limit.toLocaleString('en-US')} records; ${zoneName} has ${count - delta}, and this adds ${adding}`] });
  }
}
