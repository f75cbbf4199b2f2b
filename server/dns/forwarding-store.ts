import { FORWARDING_DEFAULTS, type Forwarding, type ForwardStatusCode } from '../../src/core/wire/forwarding.ts';
import type { Queryable } from '../db/database.ts';
import { setParking } from './parking-store.ts';
import { touchZone } from './zone-write.ts';

interface ForwardingRow {
  forward_enabled: boolean;
  forward_target: string;
  forward_status: number;
  forward_keep_path: boolean;
}

const toForwarding = (zoneName: string, row: ForwardingRow | undefined): Forwarding =>
  row
    ? { normalizedDomainName: zoneName, enabled: row.forward_enabled, targetUrl: row.forward_target, statusCode: row.forward_status as ForwardStatusCode, keepPath: row.forward_keep_path }
    : { normalizedDomainName: zoneName, ...FORWARDING_DEFAULTS };

export async function readForwarding(q: Queryable, zoneName: string): Promise<Forwarding> {
  const [row] = await q.query<ForwardingRow>('SELECT forward_enabled, forward_target, forward_status, forward_keep_path FROM domains WHERE name = $1', [zoneName]);
  return toForwarding(zoneName, row);
}

/**
 * Stores a zone's forwarding inside the caller's transaction, after it checked ownership. Enabling unparks the zone
 * in the same change (parking and forwarding exclude each other); the zone changes (serial, announcement) only when
 * its records do, that is when forwarding turns on or off.
 */
export async function writeForwarding(q: Queryable, setting: Forwarding, now: Date): Promise<Forwarding> {
  const zoneName = setting.normalizedDomainName;
  const [before] = await q.query<ForwardingRow>('SELECT forward_enabled FROM domains WHERE name = $1 FOR UPDATE', [zoneName]);
  if (setting.enabled) await setParking(q, zoneName, { parked: false, overrideExistingRecords: false, now });
  if (before && before.forward_enabled !== setting.enabled) await touchZone(q, zoneName);
  const [row] = await q.query<ForwardingRow>(
    `UPDATE domains SET forward_enabled = $2, forward_target = $3, forward_status = $4, forward_keep_path = $5, updated_at = $6 WHERE name = $1
     RETURNING forward_enabled, forward_target, forward_status, forward_keep_path`,
    [zoneName, setting.enabled, setting.targetUrl, setting.statusCode, setting.keepPath, now.toISOString()],
  );
  return toForwarding(zoneName, row);
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
