import { floorTo, STEP_MS, tileWindow, type AnalyticsStep } from '#core/analytics/buckets.ts';
import type { AnalyticsPoint, AnalyticsSummary, TopName, ZoneAnalytics } from '#core/wire/analytics.ts';
import type { Queryable } from '../db/database.ts';

/** The most asked names a window answers with. */
const TOP_NAMES = 100;

/**
 * A zone's counts over an aligned window (contract: Analytics): the step's rows for the series (only buckets with
 * queries), and the most asked names summed over the window from the coarsest rows that tile it exactly (days,
 * then hours, then minutes at its ends), so a month's names are read from about 31 rows, not 44,640.
 */
export async function readZoneAnalytics(db: Queryable, zoneName: string, window: { since: number; until: number; step: AnalyticsStep }): Promise<ZoneAnalytics> {
  const since = new Date(window.since).toISOString();
  const until = new Date(window.until).toISOString();
  // One JSON text for the whole series: PGlite hands back one value instead of thousands of rows of JSONB.
  const [row] = await db.query<{ series: string }>(
    `SELECT coalesce(json_agg(json_build_object('at', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'total', total, 'byType', by_type,
              'byRcode', by_rcode, 'byTransport', by_transport, 'dnssecOk', dnssec_ok) ORDER BY at), '[]')::text AS series
       FROM dns_query_counts WHERE zone_name = $1 AND step = $2 AND at >= $3 AND at < $4`,
    [zoneName, window.step, since, until],
  );
  const series = JSON.parse(row.series) as AnalyticsPoint[];
  const tiles = tileWindow(window.since, window.until);
  const ranges: string[] = [];
  const params: unknown[] = [zoneName];
  for (const t of tiles) {
    params.push(t.step, new Date(t.from).toISOString(), new Date(t.to).toISOString());
    const n = params.length;
    ranges.push(`(step = $${n - 2} AND at >= $${n - 1} AND at < $${n})`);
  }
  const named =
    ranges.length === 0
      ? []
      : await db.query<{ key: string; count: string | number }>(
          `SELECT e.key, sum(e.value::bigint) AS count FROM dns_query_counts c, jsonb_each_text(c.names) e
            WHERE c.zone_name = $1 AND (${ranges.join(' OR ')})
            GROUP BY e.key ORDER BY count DESC, e.key LIMIT ${TOP_NAMES}`,
          params,
        );
  const topNames: TopName[] = named.map((r) => {
    const parts = r.key.split(' ');
    const rcode = parts.pop() as string;
    const type = parts.pop() as string;
    return { name: parts.join(' '), type, rcode, count: Number(r.count) };
  });
  return { since, until, step: window.step, series, topNames };
}

/**
 * Queries a day for each of `zoneNames` over the `days` days that end with today (UTC): the day rows alone, one
 * query for every zone. A zone or day without queries counts 0.
 */
export async function readDailyTotals(db: Queryable, zoneNames: string[], days: number, now: number): Promise<AnalyticsSummary> {
  const today = floorTo(now, '1d');
  const starts = Array.from({ length: days }, (_, i) => today - (days - 1 - i) * STEP_MS['1d']);
  const dayIso = starts.map((t) => new Date(t).toISOString());
  const rows =
    zoneNames.length === 0
      ? []
      : await db.query<{ zone_name: string; at: Date | string; total: string | number }>(
          `SELECT zone_name, at, total FROM dns_query_counts WHERE step = '1d' AND zone_name = ANY($1) AND at >= $2`,
          [zoneNames, dayIso[0]],
        );
  const zones = new Map(zoneNames.map((z) => [z, Array.from({ length: days }, () => 0)]));
  for (const r of rows) {
    const i = starts.indexOf(new Date(r.at).getTime());
    const daily = zones.get(r.zone_name);
    if (daily && i >= 0) daily[i] = Number(r.total);
  }
  return { days: dayIso, zones: [...zones].map(([zoneName, daily]) => ({ zoneName, daily, total: daily.reduce((a, b) => a + b, 0) })) };
}
