/**
 * Query analytics' time arithmetic (contract: Analytics), shared by the service and the dashboard: the steps, a
 * window aligned to its step, and a window cut into the fewest whole days, hours and minutes, so that anything
 * summed over the window is read from the coarsest rows the name server's counts are rolled up into. All UTC.
 */
import { DAY_MS } from '../dates.ts';

export const ANALYTICS_STEPS = ['1m', '1h', '1d'] as const;
export type AnalyticsStep = (typeof ANALYTICS_STEPS)[number];

export const STEP_MS: Record<AnalyticsStep, number> = { '1m': 60_000, '1h': 3_600_000, '1d': DAY_MS };
/** The longest window one request may ask for. */
export const MAX_WINDOW_DAYS = 31;
export const MAX_WINDOW_MS = MAX_WINDOW_DAYS * STEP_MS['1d'];

export const floorTo = (ms: number, step: AnalyticsStep): number => Math.floor(ms / STEP_MS[step]) * STEP_MS[step];
export const ceilTo = (ms: number, step: AnalyticsStep): number => Math.ceil(ms / STEP_MS[step]) * STEP_MS[step];

/** The window as counted: `since` down and `until` up to whole steps (until exclusive). */
export function alignWindow(sinceMs: number, untilMs: number, step: AnalyticsStep): { since: number; until: number } {
  return { since: floorTo(sinceMs, step), until: ceilTo(untilMs, step) };
}

export interface Tile {
  step: AnalyticsStep;
  /** Start of the first bucket, inclusive. */
  from: number;
  /** End, exclusive. */
  to: number;
}

/**
 * Cuts a window of whole minutes into ranges of whole days, then whole hours, then minutes at its ends: every
 * minute of the window in exactly one range, each range's buckets whole, and the fewest rows to read.
 */
export function tileWindow(since: number, until: number): Tile[] {
  if (until <= since) return [];
  const tiles: Tile[] = [];
  const push = (step: AnalyticsStep, from: number, to: number) => {
    if (to > from) tiles.push({ step, from, to });
  };
  const h0 = ceilTo(since, '1h');
  const h1 = floorTo(until, '1h');
  if (h0 >= h1) {
    push('1m', since, until);
    return tiles;
  }
  const d0 = ceilTo(h0, '1d');
  const d1 = floorTo(h1, '1d');
  push('1m', since, h0);
  if (d0 < d1) {
    push('1h', h0, d0);
    push('1d', d0, d1);
    push('1h', d1, h1);
  } else push('1h', h0, h1);
  push('1m', h1, until);
  return tiles;
}

/** Every bucket start of the window at its step: what a chart draws, with zero where the service counted nothing. */
export function bucketStarts(since: number, until: number, step: AnalyticsStep): number[] {
  const out: number[] = [];
  for (let at = floorTo(since, step); at < until; at += STEP_MS[step]) out.push(at);
  return out;
}
