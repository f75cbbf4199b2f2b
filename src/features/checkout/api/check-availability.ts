import { queryOptions } from '@tanstack/react-query';
import type { Api } from '@/lib/api/use-api.ts';

/** Same key as search's availability, so arriving from a search result asks nothing again. */
export function availabilityKey(name: string): unknown[] {
  return ['search', 'availability', name];
}

export function availabilityQuery(api: Api, name: string | undefined) {
  return queryOptions({
    queryKey: availabilityKey(name ?? ''),
    queryFn: () => api.call('checkAvailability', { query: { domain: name } }),
    enabled: name !== undefined,
    staleTime: 60_000,
  });
}
