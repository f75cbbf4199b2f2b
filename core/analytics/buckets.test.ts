import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignWindow, bucketStarts, ceilTo, floorTo, MAX_WINDOW_MS, STEP_MS, tileWindow, type AnalyticsStep } from './buckets.ts';

const MINUTE = STEP_MS['1m'];
/** A window of whole minutes within about a year of 2026, at most 31 days long. */
const minuteWindow = fc
  .tuple(fc.integer({ min: 29_400_000, max: 29_950_000 }), fc.integer({ min: 1, max: MAX_WINDOW_MS / MINUTE }))
  .map(([start, minutes]) => ({ since: start * MINUTE, until: (start + minutes) * MINUTE }));
const step = fc.constantFrom<AnalyticsStep>('1m', '1h', '1d');

describe('analytics buckets', () => {
  it('aligns a window outward to whole steps, never losing a moment of it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 41 }), fc.integer({ min: 1, max: MAX_WINDOW_MS }), step, (since, length, s) => {
        const w = alignWindow(since, since + length, s);
        expect(w.since % STEP_MS[s]).toBe(0);
        expect(w.until % STEP_MS[s]).toBe(0);
        expect(w.since).toBeLessThanOrEqual(since);
        expect(w.until).toBeGreaterThanOrEqual(since + length);
        expect(since - w.since).toBeLessThan(STEP_MS[s]);
        expect(w.until - (since + length)).toBeLessThan(STEP_MS[s]);
      }),
    );
  });

  it('tiles a window with whole days, hours and minutes: every minute in exactly one tile, in order, and few rows', () => {
    fc.assert(
      fc.property(minuteWindow, ({ since, until }) => {
        const tiles = tileWindow(since, until);
        let at = since;
        let rows = 0;
        for (const t of tiles) {
          expect(t.from).toBe(at);
          expect(t.to).toBeGreaterThan(t.from);
          expect(floorTo(t.from, t.step)).toBe(t.from);
          expect(ceilTo(t.to, t.step)).toBe(t.to);
          rows += (t.to - t.from) / STEP_MS[t.step];
          at = t.to;
        }
        expect(at).toBe(until);
        // At most 59 minutes and 23 hours at each end, and the days between.
        expect(rows).toBeLessThanOrEqual(2 * 59 + 2 * 23 + 31);
      }),
    );
  });

  it('sums read from the tiles equal the sums of the minutes', () => {
    fc.assert(
      fc.property(minuteWindow, fc.array(fc.nat({ max: 3 * 24 * 60 }), { maxLength: 40 }), ({ since, until }, offsets) => {
        // Queries at minutes around the window, rolled up into hours and days as the counter writes them.
        const minutes = offsets.map((o) => since - 24 * 60 * MINUTE + o * MINUTE);
        const rolled = (s: AnalyticsStep) => {
          const m = new Map<number, number>();
          for (const t of minutes) m.set(floorTo(t, s), (m.get(floorTo(t, s)) ?? 0) + 1);
          return m;
        };
        const rows = { '1m': rolled('1m'), '1h': rolled('1h'), '1d': rolled('1d') };
        let fromTiles = 0;
        for (const t of tileWindow(since, until)) for (const [at, n] of rows[t.step]) if (at >= t.from && at < t.to) fromTiles += n;
        expect(fromTiles).toBe(minutes.filter((t) => t >= since && t < until).length);
      }),
    );
  });

  it('lists every bucket start of a window once, at its step', () => {
    fc.assert(
      fc.property(minuteWindow, step, ({ since, until }, s) => {
        const w = alignWindow(since, until, s);
        const starts = bucketStarts(w.since, w.until, s);
        expect(starts.length).toBe((w.until - w.since) / STEP_MS[s]);
        expect(new Set(starts).size).toBe(starts.length);
      }),
    );
  });
});
