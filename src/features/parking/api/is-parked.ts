import { queryOptions } from '@tanstack/react-query';
import type { Api } from '@/lib/api/use-api.ts';
import { zoneKey } from '@/lib/query-keys.ts';

export function parkedKey(domain: string): unknown[] {
  return [...zoneKey(domain), 'parked'];
}

/** GET /dns/parked (public); production's bare boolean is normalised by the API client. */
export function parkedQuery(api: Api, domain: string) {
  return queryOptions({
    queryKey: parkedKey(domain),
    queryFn: () => api.call('isDomainParked', { query: { normalizedDomainName: domain } }),
    enabled: domain !== '',
  });
}
