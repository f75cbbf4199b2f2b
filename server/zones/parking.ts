import { PARKING_REPLACES } from '#core/dns/parking.ts';
import type { RecordChange } from '#core/wire/history.ts';
import type { Queryable } from '../db/database.ts';
import { toForwarding } from '../dns/forwarding-row.ts';
import { toWire, type RecordRow } from '../dns/zone-read.ts';
import type { ZoneChangeFacts } from '#core/wire/history.ts';
import type { LockedZone, ZoneCommand } from './pipeline.ts';

export interface ParkingChange {
  parked: boolean;
  overrideExistingRecords: boolean;
}

/** Parks or unparks a zone; parking a parked zone, or unparking an unparked one, changes nothing. See applyParking. */
export function parkingCommand(change: ParkingChange): ZoneCommand<{ success: true }> {
  return {
    async apply(tx, zone, { now }) {
      const applied = await applyParking(tx, zone, change, now);
      return { result: { success: true }, facts: applied?.facts ?? null, recordDelta: applied?.recordDelta };
    },
  };
}

/**
 * Parking as part of a change (forwarding unparks in its own change): null when the zone is already as asked. Parking
 * with override deletes the stored apex records the parking records take the place of (A, AAAA, CAA); without
 * override they stay and are served beside the parking records. Unparking keeps every stored record. Parking turns
 * forwarding off in the same statement: the two exclude each other.
 */
export async function applyParking(tx: Queryable, zone: LockedZone, change: ParkingChange, now: Date): Promise<{ facts: ZoneChangeFacts; recordDelta: number } | null> {
  if (zone.parked === change.parked) return null;
  const removed =
    change.parked && change.overrideExistingRecords
      ? await tx.query<RecordRow>(
          "DELETE FROM dns_records WHERE zone_name = $1 AND name = '@' AND type = ANY($2::text[]) RETURNING id, zone_name, name, type, class, ttl, rdata, metadata, comment, tags, created_at, updated_at",
          [zone.name, PARKING_REPLACES],
        )
      : [];
  await tx.query(
    'UPDATE domains SET parked = $2, parked_at = CASE WHEN $2 THEN $3::timestamptz ELSE parked_at END, forward_enabled = forward_enabled AND NOT $2, updated_at = $3 WHERE name = $1',
    [zone.name, change.parked, now.toISOString()],
  );
  const changes: RecordChange[] = removed.map((record) => ({ op: 'delete', before: toWire(record), after: null }));
  const forwardingBefore = toForwarding(zone.name, zone);
  const forwarding = change.parked && forwardingBefore.enabled ? { before: forwardingBefore, after: { ...forwardingBefore, enabled: false } } : undefined;
  return { facts: { changes, parking: { before: zone.parked, after: change.parked }, ...(forwarding ? { forwarding } : {}) }, recordDelta: -removed.length };
}
