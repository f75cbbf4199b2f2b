/** Date arithmetic both sides share: one day's length and whole calendar years, so neither spells them again. */

/** One day in milliseconds (UTC days: no daylight saving, no leap seconds). */
export const DAY_MS = 86_400_000;

/**
 * `date` moved by whole calendar years in UTC: the same day and time of day, `years` later (a 29 February lands on
 * 1 March in a year without one). A registration's and a renewal's expiry are computed so.
 */
export function addYears(date: Date, years: number): Date {
  const moved = new Date(date);
  moved.setUTCFullYear(moved.getUTCFullYear() + years);
  return moved;
}
