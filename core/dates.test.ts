import { describe, expect, it } from 'vitest';
import { addYears, DAY_MS } from './dates.ts';

describe('dates', () => {
  it('adds whole calendar years in UTC, keeping the day and the time of day', () => {
    expect(addYears(new Date('2026-03-14T09:26:53.589Z'), 2).toISOString()).toBe('2028-03-14T09:26:53.589Z');
    expect(addYears(new Date('2027-12-31T23:59:59.000Z'), 1).toISOString()).toBe('2028-12-31T23:59:59.000Z');
    // 29 February has no day in the next year: it lands on 1 March (as a registration's expiry always has).
    expect(addYears(new Date('2028-02-29T12:00:00.000Z'), 1).toISOString()).toBe('2029-03-01T12:00:00.000Z');
    expect(addYears(new Date('2028-02-29T12:00:00.000Z'), 4).toISOString()).toBe('2032-02-29T12:00:00.000Z');
  });

  it('leaves the date it was given as it was', () => {
    const given = new Date('2026-01-01T00:00:00.000Z');
    addYears(given, 3);
    expect(given.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('counts a day as 24 hours of milliseconds', () => {
    expect(new Date(Date.UTC(2026, 0, 1) + DAY_MS).toISOString()).toBe('2026-01-02T00:00:00.000Z');
  });
});
