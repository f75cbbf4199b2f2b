import { useMutation } from '@tanstack/react-query';
import type { ZoneScan } from '#core/operations/records.ts';
import { useApi } from '@/lib/api/use-api.ts';

/**
 * GET /dns/scan (ours, the owner, signed in): what the provider the zone is leaving serves, for the change set. A
 * mutation, not a query: it runs when the person asks (it sends up to 300 DNS queries) and nothing caches it.
 */
export function useScanZone(zoneName: string) {
  const api = useApi();
  return useMutation<ZoneScan, Error, string>({
    mutationFn: (nameserver) => api.call('scanZone', { query: { zoneName, ...(nameserver.trim() ? { nameserver: nameserver.trim() } : {}) } }),
  });
}
