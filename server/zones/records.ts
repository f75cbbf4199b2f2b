import { randomUUID } from 'node:crypto';
import { isWeighed } from '#core/dns/listed.ts';
import type { RecordLike } from '#core/dns/types.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import type { RecordChange } from '#core/wire/history.ts';
import type { Queryable } from '../db/database.ts';
import { managedRecords, namesAround, neighbourhood, readZoneState, toWire, type RecordRow } from '../dns/zone-read.ts';
import { checkRules, mergeUpdates, refuseManaged, type CheckedChange } from '../dns/zone-validate.ts';
import { notFound } from '../domain-errors.ts';
import { dropStaleFlattened } from './alias.ts';
import type { ZoneCommand } from './pipeline.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RECORD_COLUMNS = 'id, zone_name, name, type, class, ttl, rdata, metadata, comment, tags, created_at, updated_at';

/**
 * Writes records (creates, updates, deletes) whose own rules passed (checkRecords): the ids (404 when not in the
 * zone), managed records (read-only), the zone rules on the zone as it would stand, then the write. Loads only the
 * records the rules can touch, never the whole zone. Answers the created records, then the updated ones, in the
 * stored form.
 */
export function recordsCommand(change: CheckedChange): ZoneCommand<DnsRecord[]> {
  return {
    async apply(tx, _zone, { now, managed: settings }) {
      const { zoneName, creates: created, updates, deletes } = change;
      // Ids: every one must be in this zone (stored, or managed while parked). One query reads the zone's state, the
      // stored records the ids name, and the records around every name known so far (a create's names are).
      const ids = [...new Set([...updates.map((u) => u.id), ...deletes])];
      const lookup = ids.filter((id) => UUID.test(id));
      const around = namesAround(created);
      const { zone, records: firstRead } = await readZoneState(tx, zoneName, around.names, lookup);
      const managed = managedRecords(zoneName, zone, settings);
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
      const existing = await neighbourhood(tx, zoneName, [...created, ...updated], storedById, managed.filter(isWeighed), { names: around.names, records: firstRead });
      checkRules(change, { existing, parked: zone?.parked ?? false, forwarding: zone?.forward_enabled ?? false, updated });
      const { answers, changes, delta } = await writeRecords(tx, zoneName, { created, updated, deletes }, now.toISOString());
      // An ALIAS deleted or pointed elsewhere takes its flattened addresses with it, in this change.
      const unaliased = changes.flatMap((c) => (c.before?.type === 'ALIAS' ? [c.before.name] : []));
      changes.push(...(await dropStaleFlattened(tx, zoneName, unaliased, now.toISOString())));
      return { result: answers, facts: changes.length > 0 ? { changes } : null, recordDelta: delta };
    },
  };
}

async function writeRecords(
  q: Queryable,
  zoneName: string,
  change: { created: RecordLike[]; updated: Array<RecordLike & { id: string }>; deletes: string[] },
  now: string,
): Promise<{ answers: DnsRecord[]; changes: RecordChange[]; delta: number }> {
  const { created, updated, deletes } = change;
  const removed = deletes.length > 0 ? await q.query<RecordRow>(`DELETE FROM dns_records WHERE zone_name = $1 AND id = ANY($2::uuid[]) RETURNING ${RECORD_COLUMNS}`, [zoneName, deletes]) : [];
  const changes: RecordChange[] = removed.map((row) => ({ op: 'delete', before: toWire(row), after: null }));
  const answers: DnsRecord[] = [];
  if (created.length > 0) {
    const ids = created.map(() => randomUUID());
    const rows = await q.query<RecordRow>(
      `INSERT INTO dns_records (id, zone_name, name, type, ttl, rdata, comment, tags, created_at, updated_at)
       SELECT u.id, $1::text, u.name, u.type, u.ttl, u.rdata, u.comment, ARRAY(SELECT json_array_elements_text(u.tags::json)), $6::timestamptz, $6::timestamptz
       FROM unnest($2::uuid[], $3::text[], $4::text[], $5::int[], $7::text[], $8::int[], $9::text[], $10::text[]) AS u(id, name, type, ttl, rdata, ord, comment, tags)
       ORDER BY u.ord
       RETURNING ${RECORD_COLUMNS}`,
      [
        zoneName, ids, created.map((r) => r.name), created.map((r) => r.type), created.map((r) => r.ttl), now, created.map((r) => r.rdata), created.map((_, i) => i),
        created.map((r) => r.comment ?? ''), created.map((r) => JSON.stringify(r.tags ?? [])),
      ],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) answers.push(toWire(byId.get(id)!));
    for (const after of answers) changes.push({ op: 'create', before: null, after });
  }
  // The zone is locked: the rows read here are the ones the updates replace.
  const before = updated.length > 0 ? await q.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM dns_records WHERE zone_name = $1 AND id = ANY($2::uuid[])`, [zoneName, updated.map((r) => r.id)]) : [];
  const beforeById = new Map(before.map((row) => [row.id, toWire(row)]));
  for (const record of updated) {
    const [row] = await q.query<RecordRow>(
      `UPDATE dns_records SET name = $3, type = $4, rdata = $5, ttl = $6, updated_at = $7, comment = $8, tags = $9::text[] WHERE zone_name = $1 AND id = $2 RETURNING ${RECORD_COLUMNS}`,
      [zoneName, record.id, record.name, record.type, record.rdata, record.ttl, now, record.comment ?? '', record.tags ?? []],
    );
    const after = toWire(row);
    answers.push(after);
    changes.push({ op: 'update', before: beforeById.get(record.id) ?? null, after });
  }
  return { answers, changes, delta: created.length - removed.length };
}
