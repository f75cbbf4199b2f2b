import type { Forwarding } from '#core/wire/forwarding.ts';
import { FORWARDING_COLUMNS, toForwarding, type ForwardingRow } from '../dns/forwarding-row.ts';
import { applyParking } from './parking.ts';
import type { ZoneCommand } from './pipeline.ts';

const FIELDS = ['enabled', 'targetUrl', 'statusCode', 'keepPath'] as const;

/**
 * Stores a zone's forwarding. Enabling unparks the zone in the same change (parking and forwarding exclude each
 * other). A new target or status is a change of its own, even when the records stay as they were: it has an entry and
 * a serial like any other. The same setting again changes nothing.
 */
export function forwardingCommand(setting: Forwarding): ZoneCommand<Forwarding> {
  return {
    async apply(tx, zone, { now }) {
      const previous = toForwarding(zone.name, zone);
      const unparked = setting.enabled ? await applyParking(tx, zone, { parked: false, overrideExistingRecords: false }, now) : null;
      const [row] = await tx.query<ForwardingRow>(
        `UPDATE domains SET forward_enabled = $2, forward_target = $3, forward_status = $4, forward_keep_path = $5, updated_at = $6 WHERE name = $1
         RETURNING ${FORWARDING_COLUMNS}`,
        [zone.name, setting.enabled, setting.targetUrl, setting.statusCode, setting.keepPath, now.toISOString()],
      );
      const after = toForwarding(zone.name, row);
      const changed = FIELDS.some((field) => previous[field] !== after[field]);
      if (!changed && !unparked) return { result: after, facts: null };
      return { result: after, facts: { changes: [], ...(unparked ? { parking: unparked.facts.parking } : {}), forwarding: { before: previous, after } } };
    },
  };
}
