import { queryOptions, useMutation } from '@tanstack/react-query';
import type { GrantZoneAccessInput, ZoneGrant } from '#core/wire/access.ts';
import { apiCall } from '@/lib/api/call.ts';
import { domainFactKey } from '@/lib/query-keys.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';

/** A zone's grants: its `access` fact, which a grant or revocation changes (the refresh rule re-reads it). */
const grantsKey = (domain: string) => domainFactKey(domain, 'access');

/** GET /dns/grants (ours): every grant for the owner, their own for a grantee. */
export function zoneGrantsQuery(domain: string, enabled = true) {
  return queryOptions<ZoneGrant[]>({ queryKey: grantsKey(domain), queryFn: () => apiCall('listZoneAccess', { query: { zoneName: domain } }), enabled: enabled && domain !== '' });
}

/** POST /dns/grants, signed by the owner. */
export function useGrantZoneAccess() {
  const { signAndCall } = useSignedCall();
  return useMutation({ mutationFn: (input: GrantZoneAccessInput) => signAndCall('grantZoneAccess', input) });
}

/** DELETE /dns/grants, signed by the owner (or the grantee giving it up). */
export function useRevokeZoneAccess(domain: string) {
  const { signAndCall } = useSignedCall();
  return useMutation({ mutationFn: (grantId: string) => signAndCall('revokeZoneAccess', { zoneName: domain, grantId }) });
}
