import { z } from 'zod';
import { ANALYTICS_STEPS, MAX_WINDOW_DAYS, MAX_WINDOW_MS } from '../analytics/buckets.ts';
import { isoDate, zoneName } from './common.ts';

/** What the name server tells apart about an answer (contract: Analytics): NODATA is NOERROR without records. */
const ANSWER_CODES = ['NOERROR', 'NODATA', 'NXDOMAIN', 'REFUSED', 'SERVFAIL'] as const;
export type AnswerCode = (typeof ANSWER_CODES)[number];
const TRANSPORTS = ['udp', 'tcp', 'doh'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** `since` defaults to a day before `until`, `until` to the end of the current minute, `step` to an hour. */
export const analyticsQuery = z
  .object({
    zoneName,
    since: isoDate.optional(),
    until: isoDate.optional(),
    step: z.enum(ANALYTICS_STEPS).default('1h'),
  })
  .refine((q) => !q.since || !q.until || Date.parse(q.since) < Date.parse(q.until), { message: 'since must be before until', path: ['since'] })
  .refine((q) => !q.since || !q.until || Date.parse(q.until) - Date.parse(q.since) <= MAX_WINDOW_MS, {
    message: `A request covers at most ${MAX_WINDOW_DAYS} days`,
    path: ['until'],
  });
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

const counts = z.record(z.string(), z.number().int().min(0));

const analyticsPoint = z.object({
  at: isoDate,
  total: z.number().int().min(0),
  byType: counts,
  byRcode: counts,
  byTransport: counts,
  dnssecOk: z.number().int().min(0),
});
export type AnalyticsPoint = z.infer<typeof analyticsPoint>;

const topName = z.object({ name: z.string(), type: z.string(), rcode: z.string(), count: z.number().int().min(0) });
export type TopName = z.infer<typeof topName>;

/** The buckets with queries, oldest first (a bucket without queries is left out); `since`/`until` aligned to `step`. */
export const zoneAnalytics = z.object({
  since: isoDate,
  until: isoDate,
  step: z.enum(ANALYTICS_STEPS),
  series: z.array(analyticsPoint),
  topNames: z.array(topName),
});
export type ZoneAnalytics = z.infer<typeof zoneAnalytics>;

/** Days a summary covers (the Domains list's sparkline: a week). */
const SUMMARY_DAYS = { default: 7, max: MAX_WINDOW_DAYS } as const;

export const analyticsSummaryQuery = z.object({
  days: z.coerce.number().int().min(1).max(SUMMARY_DAYS.max).default(SUMMARY_DAYS.default),
});
export type AnalyticsSummaryQuery = z.infer<typeof analyticsSummaryQuery>;

/**
 * Queries a day for each zone the caller holds, over the last `days` days (today, so far, the last): one answer for
 * the whole Domains list instead of one request a domain. `daily[i]` counts the day that starts at `days[i]`.
 */
export const analyticsSummary = z.object({
  days: z.array(isoDate),
  zones: z.array(z.object({ zoneName: z.string(), daily: z.array(z.number().int().min(0)), total: z.number().int().min(0) })),
});
export type AnalyticsSummary = z.infer<typeof analyticsSummary>;
