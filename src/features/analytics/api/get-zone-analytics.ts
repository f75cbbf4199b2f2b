import { queryOptions } from '@tanstack/react-query';
import type { AnalyticsStep } from '#core/analytics/buckets.ts';
import { DAY_MS } from '#core/dates.ts';
import type { ZoneAnalytics } from '#core/wire/analytics.ts';
import type { ApiError } from '@/lib/api-error.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { zoneKey } from '@/lib/query-keys.ts';

/** The windows the tab offers: the last day by hour, the last week by hour, the last 30 days by day, the last hour by minute. */
export const WINDOWS = {
  hour: { label: 'Last hour', days: 1 / 24, step: '1m' },
  day: { label: 'Last 24 hours', days: 1, step: '1h' },
  week: { label: 'Last 7 days', days: 7, step: '1h' },
  month: { label: 'Last 30 days', days: 30, step: '1d' },
} as const satisfies Record<string, { label: string; days: number; step: AnalyticsStep }>;
export type WindowId = keyof typeof WINDOWS;

/** GET /dns/analytics (ours): the zone's counts over a window ending now (the service fills `until`). */
export function zoneAnalyticsQuery(api: Api, zoneName: string, window: WindowId, enabled: boolean) {
  const { days, step } = WINDOWS[window];
  return queryOptions<ZoneAnalytics>({
    queryKey: [...zoneKey(zoneName), 'analytics', window],
    queryFn: () => {
      const minute = Math.floor(Date.now() / 60_000) * 60_000 + 60_000;
      return api.call('getZoneAnalytics', { query: { zoneName, since: new Date(minute - days * DAY_MS).toISOString(), step } });
    },
    enabled,
    staleTime: 0,
    retry: (count: number, error: Error) => !isAnalyticsUnsupported(error as ApiError) && count < 2,
  });
}

/**
 * Whether the service counts no queries at all (production has no such operation): it answers an unknown path,
 * not our "no domain" 404 or an error of the request.
 */
export function isAnalyticsUnsupported(error: ApiError | null | undefined): boolean {
  if (!error || typeof error.status !== 'number') return false;
  if (error.status === 405 || error.status === 501) return true;
  return error.status === 404 && !error.message.startsWith('No domain ');
}
