import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { MAX_BULK, type Availability } from '#core/wire/search.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { availabilityKey, searchKey } from '@/lib/query-keys.ts';

/**
 * GET /search/bulk-availability: one request for a whole page of suggestions (at most 50 names).
 * Each answer also fills the single-name cache, so choosing a suggestion asks nothing more.
 */
export function bulkAvailabilityQuery(api: Api, queryClient: QueryClient, domains: string[]) {
  const names = domains.slice(0, MAX_BULK);
  return queryOptions({
    queryKey: searchKey('bulk-availability', names),
    queryFn: async (): Promise<Availability[]> => {
      const results = await api.call('checkBulkAvailability', { query: { domains: names } });
      for (const result of results) {
        if (queryClient.getQueryData(availabilityKey(result.domain)) === undefined) {
          queryClient.setQueryData(availabilityKey(result.domain), result);
        }
      }
      return results;
    },
    enabled: names.length > 0,
    staleTime: 60_000,
  });
}
