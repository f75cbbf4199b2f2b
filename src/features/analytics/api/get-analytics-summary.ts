import { queryOptions } from '@tanstack/react-query';
import type { AnalyticsSummary } from '#core/wire/analytics.ts';
import type { ApiError } from '@/lib/api-error.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { accountKey } from '@/lib/query-keys.ts';
import { isAnalyticsUnsupported } from './get-zone-analytics.ts';

/** GET /dns/analytics/summary (ours): a week of queries a day for every zone the account holds, in one request. */
export function analyticsSummaryQuery(api: Api, address: string | undefined, enabled: boolean) {
  return queryOptions<AnalyticsSummary>({
    queryKey: accountKey(address, 'analytics-summary'),
    queryFn: () => api.call('getAnalyticsSummary', { query: { days: 7 } }),
    enabled: enabled && !!address,
    // The counts move by the minute; a visit to the list a little later may show a little more.
    staleTime: 60_000,
    retry: (count: number, error: Error) => !isAnalyticsUnsupported(error as ApiError) && count < 2,
  });
}
