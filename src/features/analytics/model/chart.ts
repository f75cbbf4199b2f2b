import { alignWindow, bucketStarts, STEP_MS, type AnalyticsStep } from '#core/analytics/buckets.ts';
import type { AnalyticsPoint, ZoneAnalytics } from '#core/wire/analytics.ts';

export type StackBy = 'type' | 'rcode';

interface Bar {
  at: number;
  total: number;
  /** Count per key, in the order of `keys`. */
  parts: number[];
}

export interface Chart {
  step: AnalyticsStep;
  keys: string[];
  bars: Bar[];
  max: number;
}

const ANSWER_ORDER = ['NOERROR', 'NODATA', 'NXDOMAIN', 'REFUSED', 'SERVFAIL'];

/**
 * The bars of a window: one per step, zero where nothing was counted (the service sends only buckets with queries),
 * stacked by query type (largest first) or by answer (in the answer's order).
 */
export function chartOf(data: ZoneAnalytics, by: StackBy): Chart {
  const pick = (p: AnalyticsPoint) => (by === 'type' ? p.byType : p.byRcode);
  const sums = new Map<string, number>();
  for (const p of data.series) for (const [k, n] of Object.entries(pick(p))) sums.set(k, (sums.get(k) ?? 0) + n);
  const keys =
    by === 'rcode'
      ? [...sums.keys()].sort((a, b) => (ANSWER_ORDER.indexOf(a) + 99) % 99 - (ANSWER_ORDER.indexOf(b) + 99) % 99 || a.localeCompare(b))
      : [...sums.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k);
  const byAt = new Map(data.series.map((p) => [Date.parse(p.at), p]));
  const { since, until } = alignWindow(Date.parse(data.since), Date.parse(data.until), data.step);
  const bars = bucketStarts(since, until, data.step).map((at) => {
    const point = byAt.get(at);
    return { at, total: point?.total ?? 0, parts: keys.map((k) => (point ? (pick(point)[k] ?? 0) : 0)) };
  });
  return { step: data.step, keys, bars, max: Math.max(0, ...bars.map((b) => b.total)) };
}

/** A bar's time in words for its step: "26 Nov 09:00" (hours, minutes) or "26 Nov" (days), in UTC. */
export function barLabel(at: number, step: AnalyticsStep): string {
  const d = new Date(at);
  const day = d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return step === '1d' ? day : `${day} ${d.toISOString().slice(11, 16)}`;
}

export const stepInWords = (step: AnalyticsStep) => (STEP_MS[step] === 60_000 ? 'minute' : STEP_MS[step] === 3_600_000 ? 'hour' : 'day');

/**
 * The chart as the plotting library takes it: the times in seconds, then for each key (from the last to the first)
 * the running total up to and including it. Drawn in that order, each bar covers the ones below it in the stack, so
 * the visible slice of key k is exactly its own count.
 */
export function stackedColumns(chart: Chart): { keys: string[]; columns: number[][] } {
  const running = chart.bars.map(() => 0);
  const cumulative = chart.keys.map((_, k) =>
    chart.bars.map((bar, i) => {
      running[i] += bar.parts[k];
      return running[i];
    }),
  );
  return { keys: [...chart.keys].reverse(), columns: [chart.bars.map((b) => b.at / 1000), ...cumulative.reverse()] };
}
