import { PARKING_REPLACES } from '../../src/core/dns/parking.ts';
import type { Queryable } from '../db/database.ts';
import { touchZone } from './zone-write.ts';

/**
 * Parks or unparks a zone. Parking an already parked zone, or unparking an unparked one, changes nothing.
 * Parking with override deletes the stored apex records the parking records take the place of (A, AAAA, CAA);
 * without override they stay and are served beside the parking records. Unparking keeps every stored record.
 * Parking turns forwarding off in the same statement: the two exclude each other.
 */
export async function setParking(q: Queryable, zoneName: string, input: { parked: boolean; overrideExistingRecords: boolean; now: Date }): Promise<void> {
  const [row] = await q.query<{ parked: boolean }>('SELECT parked FROM domains WHERE name = $1 FOR UPDATE', [zoneName]);
  if (!row || row.parked === input.parked) return;
  const now = input.now.toISOString();
  if (input.parked && input.overrideExistingRecords) {
    const removed = await q.query("DELETE FROM dns_records WHERE zone_name = $1 AND name = '@' AND type = ANY($2::text[]) RETURNING id", [zoneName, PARKING_REPLACES]);
    await touchZone(q, zoneName, -removed.length);
  } else {
    await touchZone(q, zoneName);
  }
  await q.query(
    'UPDATE domains SET parked = $2, parked_at = CASE WHEN $2 THEN $3::timestamptz ELSE parked_at END, forward_enabled = forward_enabled AND NOT $2, updated_at = $3 WHERE name = $1',
    [
    zoneName,
    input.parked,
    now,
    ],
  );
}

export async function isParked(q: Queryable, zoneName: string): Promise<boolean> {
  const [row] = await q.query<{ parked: boolean }>('SELECT parked FROM domains WHERE name = $1', [zoneName]);
  return row?.parked ?? false;
}
