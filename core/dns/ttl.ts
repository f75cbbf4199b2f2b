import { TTL_MAX } from '../wire/common.ts';
import { fail, ok, type Result } from './types.ts';

/** A TTL as people read it: 60 -> '1 min', 5400 -> '1.5 h', 86400 -> '1 day', 90 -> '90 s'. */
export function ttlInWords(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds <= 0) return `${seconds} s`;
  if (seconds % 86400 === 0) return seconds === 86400 ? '1 day' : `${seconds / 86400} days`;
  // Half hours read better than many minutes: 5400 is '1.5 h', not '90 min'.
  if (seconds >= 3600 && seconds % 1800 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** Common choices offered beside a free TTL field. */
export const TTL_PRESETS: Array<{ label: string; seconds: number }> = [60, 300, 1800, 3600, 43200, 86400].map((seconds) => ({
  label: ttlInWords(seconds),
  seconds,
}));

const BIND_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** Reads a TTL as a number of seconds or in BIND units: '300', '5m', '1h', '1d', '1w', '1h30m'. */
export function parseTtl(text: string): Result<number> {
  const input = text.trim().toLowerCase().replace(/\s+/g, '');
  const example = 'Enter a TTL in seconds such as 3600, or with a unit such as 5m, 1h or 1d';
  if (input === '') return fail(example);
  if (input.startsWith('-')) return fail('A TTL cannot be negative: enter 0 or more seconds, such as 3600');
  let seconds: number;
  if (/^[0-9]+$/.test(input)) {
    seconds = Number(input);
  } else if (/^([0-9]+[smhdw])+$/.test(input)) {
    seconds = 0;
    for (const [, amount, unit] of input.matchAll(/([0-9]+)([smhdw])/g)) seconds += Number(amount) * BIND_UNITS[unit];
  } else if (/^[0-9]*[.,][0-9]+[smhdw]?$/.test(input)) {
    return fail('A TTL is a whole number: write 1h30m or 5400 rather than 1.5h');
  } else {
    return fail(example);
  }
  if (seconds > TTL_MAX) return fail(`A TTL is at most ${TTL_MAX} seconds (about 68 years); 86400 (1 day) is plenty`);
  return ok(seconds);
}
