import { requireOwnedDomain } from '../dns/domain-access.ts';
import type { Queryable } from '../db/database.ts';
import type { Principal, Services } from '../services.ts';

/**
 * Who may read a zone's query analytics: its owner (contract: Analytics). The one place to widen when grants exist
 * (a viewer grant reads analytics): 401 without a principal, 404 for a zone nobody holds, 403 for anyone else.
 */
export async function requireAnalyticsReader(services: Pick<Services, 'ownership'>, q: Queryable, zoneName: string, principal: Principal | null): Promise<void> {
  await requireOwnedDomain(services, q, zoneName, principal);
}
