import { infiniteQueryOptions } from '@tanstack/react-query';
import type { HistoryPage } from '#core/wire/history.ts';
import type { ApiError } from '@/lib/api-error.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { domainFactKey } from '@/lib/query-keys.ts';

/** The zone's `history` fact, as this account may read it: every write of the zone re-reads it (the refresh rule). */
const historyKey = (zoneName: string, account: string | undefined) => domainFactKey(zoneName, 'history', account?.toLowerCase() ?? 'anonymous');

const PAGE_SIZE = 50;

/** GET /dns/history: the zone's changes, newest first, a page at a time (the owner's session or API key). */
export function zoneHistoryQuery(api: Api, zoneName: string, account: string | undefined, enabled: boolean) {
  return infiniteQueryOptions({
    queryKey: historyKey(zoneName, account),
    queryFn: ({ pageParam }): Promise<HistoryPage> => api.call('getZoneHistory', { query: { zoneName, limit: PAGE_SIZE, before: pageParam ?? undefined } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last: HistoryPage) => last.next,
    enabled,
    // Every write of the zone adds an entry (the refresh rule re-reads it); opening the tab reads it again too.
    staleTime: 0,
    // A service without the operation answers the same every time.
    retry: (count: number, error: Error) => !isHistoryUnsupported(error as ApiError) && count < 2,
  });
}

/**
 * Whether the service keeps no history at all (production has no such operation): it answers an unknown path,
 * not our "no domain" 404 or an error of the request.
 */
export function isHistoryUnsupported(error: ApiError | null | undefined): boolean {
  if (!error || typeof error.status !== 'number') return false;
  if (error.status === 405 || error.status === 501) return true;
  return error.status === 404 && !error.message.startsWith('No domain ');
}
