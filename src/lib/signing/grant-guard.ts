import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { outOfScope, roleAtLeast, scopeInWords, ROLE_WORDS } from '@/core/access/scope.ts';
import { roleNeeded } from '@/core/access/role.ts';
import type { SharedDomain } from '@/core/wire/access.ts';
import { apiCall } from '../api/call.ts';
import { accountKey } from '../query-keys.ts';
import { OutsideGrantError } from './errors.ts';

/** GET /user/shared-domains (ours): the domains other wallets let this one help with, under live grants. */
export function sharedDomainsQuery(address: string | undefined, enabled = true) {
  return queryOptions<SharedDomain[]>({
    queryKey: accountKey(address, 'shared-domains'),
    queryFn: () => apiCall('getSharedDomains'),
    enabled: enabled && !!address,
    staleTime: 30_000,
  });
}

type Fields = Record<string, unknown>;

/** The records a write names (creates, and the new side of updates): what the dashboard can check before signing. */
function recordsOf(payload: Fields): Array<{ name: string; type: string }> {
  const list = Array.isArray(payload.records) ? (payload.records as Fields[]) : [payload];
  return list.filter((r) => typeof r.name === 'string' && typeof r.type === 'string').map((r) => ({ name: r.name as string, type: r.type as string }));
}

/**
 * A grantee's write checked against their grant before the wallet opens (the service checks it again, with the
 * records as they stand): the role, and the records the payload names. Read from the shared-domains answer the page
 * already holds; a wallet that is not a grantee of the zone (its owner) is not checked here.
 */
export function refuseOutsideGrant(queryClient: QueryClient, address: string | undefined, id: string, payload: Fields): void {
  const zoneName = typeof payload.zoneName === 'string' ? payload.zoneName : typeof payload.normalizedDomainName === 'string' ? payload.normalizedDomainName : null;
  if (!zoneName || !address) return;
  const shared = queryClient.getQueryData<SharedDomain[]>(accountKey(address, 'shared-domains'));
  const grant = shared?.find((d) => d.normalizedDomainName === zoneName);
  if (!grant) return;
  const needed = roleNeeded(id);
  if (needed === null) throw new OutsideGrantError(`Only the owner of ${zoneName} may do this; your ${grant.role} grant ${ROLE_WORDS[grant.role]}.`);
  if (!roleAtLeast(grant.role, needed)) throw new OutsideGrantError(`Your ${grant.role} grant for ${zoneName} ${ROLE_WORDS[grant.role]}; this needs the ${needed} role.`);
  const outside = outOfScope(grant, recordsOf(payload));
  if (outside) throw new OutsideGrantError(`Your grant covers ${scopeInWords(grant)}: ${outside} is outside it. Nothing was signed or sent.`);
}
