import { queryOptions } from '@tanstack/react-query';
import type { Api } from '@/lib/api/use-api.ts';
import { availabilityKey } from '@/lib/query-keys.ts';

/** GET /search/availability for one valid name; a minute is fresh enough for a search result. */
export function availabilityQuery(api: Api, name: string | undefined) {
  return queryOptions({
    queryKey: availabilityKey(name ?? ''),
    queryFn: () => api.call('checkAvailability', { query: { domain: name } }),
    enabled: name !== undefined,
    staleTime: 60_000,
  });
}
