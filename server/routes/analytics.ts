import { alignWindow, MAX_WINDOW_DAYS, MAX_WINDOW_MS, STEP_MS } from '#core/analytics/buckets.ts';
import type { AnalyticsQuery, AnalyticsSummaryQuery } from '#core/wire/analytics.ts';
import { requireAnalyticsReader } from '../analytics/access.ts';
import { readDailyTotals, readZoneAnalytics } from '../analytics/read.ts';
import { invalidInput, unauthorized } from '../domain-errors.ts';
import type { Handlers, RequestContext } from '../http/context.ts';

/** Query analytics (contract: Analytics): what this zone's name server answered, for whoever may read them. */
export const analyticsHandlers: Handlers = {
  async getZoneAnalytics({ input, principal, services }: RequestContext<AnalyticsQuery>) {
    await requireAnalyticsReader(services, services.db, input.zoneName, principal);
    const now = services.now().getTime();
    // The current minute included: until defaults to its end.
    const untilMs = input.until ? Date.parse(input.until) : Math.floor(now / STEP_MS['1m']) * STEP_MS['1m'] + STEP_MS['1m'];
    const sinceMs = input.since ? Date.parse(input.since) : untilMs - STEP_MS['1d'];
    if (sinceMs >= untilMs) throw invalidInput({ since: ['since must be before until'] });
    if (untilMs - sinceMs > MAX_WINDOW_MS) throw invalidInput({ until: [`A request covers at most ${MAX_WINDOW_DAYS} days`] });
    // What this instance counted so far is written first, so a query just answered is in the answer.
    await services.queryCounter.flush();
    return readZoneAnalytics(services.db, input.zoneName, { ...alignWindow(sinceMs, untilMs, input.step), step: input.step });
  },
  async getAnalyticsSummary({ input, principal, services }: RequestContext<AnalyticsSummaryQuery>) {
    if (!principal) throw unauthorized();
    const held = await services.ownership.domainsOf(principal.wallet);
    await services.queryCounter.flush();
    return readDailyTotals(services.db, held.map((t) => t.name), input.days, services.now().getTime());
  },
};
