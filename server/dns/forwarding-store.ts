import type { Forwarding } from '../../src/core/wire/forwarding.ts';
import type { Queryable } from '../db/database.ts';
import { recordChange, type ChangeAuthor } from '../history/record-change.ts';
import { FORWARDING_COLUMNS, toForwarding, type ForwardingRow } from './forwarding-row.ts';
import { applyParking } from './parking-store.ts';
import { touchZone } from './zone-write.ts';

export async function readForwarding(q: Queryable, zoneName: string): Promise<Forwarding> {
  const [row] = await q.query<ForwardingRow>(`SELECT ${FORWARDING_COLUMNS} FROM domains WHERE name = $1`, [zoneName]);
  return toForwarding(zoneName, row);
}

/**
 * Stores a zone's forwarding inside the caller's transaction, after it checked ownership, with one history entry
 * for the change. Enabling unparks the zone in the same change (parking and forwarding exclude each other). Every
 * change that writes an entry bumps the zone's serial exactly once, so each entry names its own serial (IXFR and the
 * history's continuity rely on it), even a new target or status that leaves the records as they were.
 */
export async function writeForwarding(q: Queryable, setting: Forwarding, now: Date, author: ChangeAuthor): Promise<Forwarding> {
  const zoneName = setting.normalizedDomainName;
  const [before] = await q.query<ForwardingRow>(`SELECT ${FORWARDING_COLUMNS} FROM domains WHERE name = $1 FOR UPDATE`, [zoneName]);
  const unparked = setting.enabled ? await applyParking(q, zoneName, { parked: false, overrideExistingRecords: false, now }) : null;
  const previous = toForwarding(zoneName, before);
  const changed = (['enabled', 'targetUrl', 'statusCode', 'keepPath'] as const).some((field) => previous[field] !== setting[field]);
  // One new serial per history entry: unparking already bumped it for this change.
  if (before && changed && !unparked) await touchZone(q, zoneName);
  const [row] = await q.query<ForwardingRow>(
    `UPDATE domains SET forward_enabled = $2, forward_target = $3, forward_status = $4, forward_keep_path = $5, updated_at = $6 WHERE name = $1
     RETURNING ${FORWARDING_COLUMNS}`,
    [zoneName, setting.enabled, setting.targetUrl, setting.statusCode, setting.keepPath, now.toISOString()],
  );
  const after = toForwarding(zoneName, row);
  await recordChange(q, zoneName, author, { changes: [], ...(unparked?.parking ? { parking: unparked.parking } : {}), forwarding: { before: previous, after } }, now);
  return after;
}

/** What the forwarder answers for a Host: the forwarding of the domain it names (its apex or www), while enabled. */
export async function forwardingForHost(q: Queryable, host: string): Promise<Forwarding | null> {
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const candidates = name.startsWith('www.') ? [name, name.slice(4)] : [name];
  const rows = await q.query<ForwardingRow & { name: string }>(
    'SELECT name, forward_enabled, forward_target, forward_status, forward_keep_path FROM domains WHERE name = ANY($1::text[]) AND forward_enabled ORDER BY length(name) DESC LIMIT 1',
    [candidates],
  );
  return rows[0] ? toForwarding(rows[0].name, rows[0]) : null;
}
