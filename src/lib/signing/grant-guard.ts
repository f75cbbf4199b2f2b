import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { outOfScope, roleAtLeast, scopeInWords, ROLE_WORDS } from '#core/access/scope.ts';
import { roleNeeded } from '#core/access/role.ts';
import type { SharedDomain } from '#core/wire/access.ts';
import { apiCall } from '../api/call.ts';
import { accountFactKey, recordsKey } from '../query-keys.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import { OutsideGrantError } from './errors.ts';

/** GET /user/shared-domains (ours): the domains other wallets let this one help with, under live grants. */
export function sharedDomainsQuery(address: string | undefined, enabled = true) {
  return queryOptions<SharedDomain[]>({
    queryKey: accountFactKey(address, 'domains', 'shared'),
    queryFn: () => apiCall('getSharedDomains'),
    enabled: enabled && !!address,
    staleTime: 30_000,
  });
}

type Fields = Record<string, unknown>;

type Named = { name: string; type: string };

/**
 * The records a write touches, as far as the page knows them: what it creates, and for an update or a delete the
 * record as the records list last read it (before) and as the update leaves it (after).
 */
function recordsOf(payload: Fields, zone: DnsRecord[] | undefined): Named[] {
  const byId = new Map((zone ?? []).map((r) => [r.id, r]));
  // A batch (records, recordsIds), a whole change set (creates, updates, deletes) or one record (the payload itself).
  const ids = Array.isArray(payload.recordsIds) ? (payload.recordsIds as unknown[]) : Array.isArray(payload.deletes) ? (payload.deletes as unknown[]) : typeof payload.id === 'string' ? [payload.id] : [];
  const list = Array.isArray(payload.records)
    ? (payload.records as Fields[])
    : Array.isArray(payload.creates) || Array.isArray(payload.updates)
      ? [...((payload.creates ?? []) as Fields[]), ...((payload.updates ?? []) as Fields[])]
      : [payload];
  const touched: Named[] = [];
  for (const id of ids) {
    const before = typeof id === 'string' ? byId.get(id) : undefined;
    if (before) touched.push(before);
  }
  for (const r of list) {
    const before = typeof r.id === 'string' ? byId.get(r.id) : undefined;
    if (before && !ids.includes(r.id)) touched.push(before);
    const name = typeof r.name === 'string' ? r.name : before?.name;
    const type = typeof r.type === 'string' ? r.type : before?.type;
    if (name !== undefined && type !== undefined && (r.name !== undefined || r.type !== undefined || !before)) touched.push({ name, type });
  }
  return touched;
}

/**
 * A grantee's write checked against their grant before the wallet opens (the service checks it again, with the
 * records as they stand): the role, and the records the write touches (updates and deletes as the list last read them). Read from the shared-domains answer the page
 * already holds; a wallet that is not a grantee of the zone (its owner) is not checked here.
 */
export function refuseOutsideGrant(queryClient: QueryClient, address: string | undefined, id: string, payload: Fields): void {
  const zoneName = typeof payload.zoneName === 'string' ? payload.zoneName : typeof payload.normalizedDomainName === 'string' ? payload.normalizedDomainName : null;
  if (!zoneName || !address) return;
  const shared = queryClient.getQueryData<SharedDomain[]>(accountFactKey(address, 'domains', 'shared'));
  const grant = shared?.find((d) => d.normalizedDomainName === zoneName);
  if (!grant) return;
  // Giving a grant up is the grantee's own to do, whatever its role (the service checks the grant is theirs).
  if (id === 'revokeZoneAccess') return;
  const needed = roleNeeded(id);
  if (needed === null) throw new OutsideGrantError(`Only the owner of ${zoneName} may do this; your ${grant.role} grant ${ROLE_WORDS[grant.role]}.`);
  if (!roleAtLeast(grant.role, needed)) throw new OutsideGrantError(`Your ${grant.role} grant for ${zoneName} ${ROLE_WORDS[grant.role]}; this needs the ${needed} role.`);
  const outside = outOfScope(grant, recordsOf(payload, queryClient.getQueryData<DnsRecord[]>(recordsKey(zoneName))));
  if (outside) throw new OutsideGrantError(`Your grant covers ${scopeInWords(grant)}: ${outside} is outside it. Nothing was signed or sent.`);
}
