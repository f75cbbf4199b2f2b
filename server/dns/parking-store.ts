import { PARKING_REPLACES } from '../../src/core/dns/parking.ts';
import type { Queryable } from '../db/database.ts';
import { recordChange, type ChangeAuthor, type ZoneChangeFacts } from '../history/record-change.ts';
import { FORWARDING_COLUMNS, toForwarding, type ForwardingRow } from './forwarding-row.ts';
import { toWire, type RecordRow } from './zone-read.ts';
import { touchZone } from './zone-write.ts';

/**
 * Parks or unparks a zone, and writes the change's history entry. Parking an already parked zone, or unparking an
 * unparked one, changes nothing. See applyParking.
 */
export async function setParking(q: Queryable, zoneName: string, input: { parked: boolean; overrideExistingRecords: boolean; now: Date; author: ChangeAuthor }): Promise<void> {
  const facts = await applyParking(q, zoneName, input);
  if (facts) await recordChange(q, zoneName, input.author, facts, input.now);
}

/**
 * Parks or unparks a zone inside the caller's transaction and answers what it did (null: nothing), for the caller's
 * one history entry. Parking with override deletes the stored apex records the parking records take the place of (A,
 * AAAA, CAA); without override they stay and are served beside the parking records. Unparking keeps every stored
 * record. Parking turns forwarding off in the same statement: the two exclude each other.
 */
export async function applyParking(q: Queryable, zoneName: string, input: { parked: boolean; overrideExistingRecords: boolean; now: Date }): Promise<ZoneChangeFacts | null> {
  const [row] = await q.query<{ parked: boolean } & ForwardingRow>(`SELECT parked, ${FORWARDING_COLUMNS} FROM domains WHERE name = $1 FOR UPDATE`, [zoneName]);
  if (!row || row.parked === input.parked) return null;
  const now = input.now.toISOString();
  let removed: RecordRow[] = [];
  if (input.parked && input.overrideExistingRecords) {
    removed = await q.query<RecordRow>(
      "DELETE FROM dns_records WHERE zone_name = $1 AND name = '@' AND type = ANY($2::text[]) RETURNING id, zone_name, name, type, class, ttl, rdata, metadata, created_at, updated_at",
      [zoneName, PARKING_REPLACES],
    );
    await touchZone(q, zoneName, -removed.length);
  } else {
    await touchZone(q, zoneName);
  }
  await q.query(
    'UPDATE domains SET parked = $2, parked_at = CASE WHEN $2 THEN $3::timestamptz ELSE parked_at END, forward_enabled = forward_enabled AND NOT $2, updated_at = $3 WHERE name = $1',
    [zoneName, input.parked, now],
  );
  const changes = removed.map((record) => ({ op: 'delete' as const, before: toWire(record), after: null }));
  const forwardingBefore = toForwarding(zoneName, row);
  const forwarding = input.parked && forwardingBefore.enabled ? { before: forwardingBefore, after: { ...forwardingBefore, enabled: false } } : undefined;
  return { changes, parking: { before: row.parked, after: input.parked }, ...(forwarding ? { forwarding } : {}) };
}

export async function isParked(q: Queryable, zoneName: string): Promise<boolean> {
  const [row] = await q.query<{ parked: boolean }>('SELECT parked FROM domains WHERE name = $1', [zoneName]);
  return row?.parked ?? false;
}
