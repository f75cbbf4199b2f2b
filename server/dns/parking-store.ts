import type { Queryable } from '../db/database.ts';

/** Whether a domain is parked; parking and unparking are changes of the zone (server/zones/parking.ts). */
export async function isParked(q: Queryable, zoneName: string): Promise<boolean> {
  const [row] = await q.query<{ parked: boolean }>('SELECT parked FROM domains WHERE name = $1', [zoneName]);
  return row?.parked ?? false;
}
