import { plainName } from '#core/dns/names.ts';
import type { Forwarding } from '#core/wire/forwarding.ts';
import type { Queryable } from '../db/database.ts';
import { FORWARDING_COLUMNS, toForwarding, type ForwardingRow } from './forwarding-row.ts';

export async function readForwarding(q: Queryable, zoneName: string): Promise<Forwarding> {
  const [row] = await q.query<ForwardingRow>(`SELECT ${FORWARDING_COLUMNS} FROM domains WHERE name = $1`, [zoneName]);
  return toForwarding(zoneName, row);
}

/** What the forwarder answers for a Host: the forwarding of the domain it names (its apex or www), while enabled. */
export async function forwardingForHost(q: Queryable, host: string): Promise<Forwarding | null> {
  const name = plainName(host.replace(/:\d+$/, ''));
  const candidates = name.startsWith('www.') ? [name, name.slice(4)] : [name];
  const rows = await q.query<ForwardingRow & { name: string }>(
    'SELECT name, forward_enabled, forward_target, forward_status, forward_keep_path FROM domains WHERE name = ANY($1::text[]) AND forward_enabled ORDER BY length(name) DESC LIMIT 1',
    [candidates],
  );
  return rows[0] ? toForwarding(rows[0].name, rows[0]) : null;
}
