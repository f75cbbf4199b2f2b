import { ancestorsOf } from '#core/dns/names.ts';
import type { Queryable } from '../db/database.ts';

/** A name a zone of this service could have: printable ASCII (a query's name may hold any byte, which text columns refuse). */
const ZONE_NAME = /^[\x21-\x7e]+$/;

/** The names a zone holding `name` could have: the name and its ancestors, top-level names left out. */
export const zoneCandidates = (name: string) => [name, ...ancestorsOf(name)].filter((n) => n.includes('.') && ZONE_NAME.test(n));

/**
 * The zone of this service that holds `name` (lowercase, no final dot): the longest zone name it ends in, or null.
 * `version` is the zone's version (its snapshot is current while they agree).
 */
export async function owningZone(q: Queryable, name: string): Promise<{ name: string; version: string | null } | null> {
  const candidates = zoneCandidates(name);
  if (candidates.length === 0) return null;
  const [row] = await q.query<{ name: string; version: string | null }>(
    'SELECT name, zone_version::text AS version FROM domains WHERE name = ANY($1::text[]) ORDER BY length(name) DESC LIMIT 1',
    [candidates],
  );
  return row ?? null;
}
