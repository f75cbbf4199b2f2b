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
