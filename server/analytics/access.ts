import { requireZoneReader } from '../access/authorise.ts';
import type { Queryable } from '../db/database.ts';
import type { Principal, Services } from '../services.ts';

/**
 * Who may read a zone's query analytics: its owner or a grantee of any role (contract: Analytics, Access): 401 without a principal, 404 for a zone nobody holds, 403 for anyone else.
 */
export async function requireAnalyticsReader(services: Pick<Services, 'ownership' | 'now'>, q: Queryable, zoneName: string, principal: Principal | null): Promise<void> {
  await requireZoneReader(services, q, zoneName, principal, services.now());
}
