import { z } from 'zod';
import { asciiName } from './text.ts';

/** The seed's zone-name pattern: lowercase labels of 1–63 characters separated by dots. */
const ZONE_NAME_PATTERN = /^[a-z0-9_]([a-z0-9-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9-]{0,61}[a-z0-9_])?)*$/;

export const zoneName = asciiName().regex(ZONE_NAME_PATTERN, 'Use lowercase labels separated by dots, like example.com');
export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'Expected a 0x-prefixed 20-byte address');
export const isoDate = z.string().datetime({ offset: true });
/** The largest value a PostgreSQL INTEGER column holds: a bound for every whole number the service stores. */
export const INT32_MAX = 2147483647;
/** A TTL is at most 2^31 − 1 seconds (RFC 2181 §8), which a PostgreSQL INTEGER column holds too. */
export const TTL_MAX = 2 ** 31 - 1;
export const ttl = z
  .number({ error: 'TTL must be a number of seconds' })
  .int('TTL must be a whole number of seconds')
  .min(0, 'TTL cannot be negative')
  .max(TTL_MAX, `TTL is at most ${TTL_MAX}`);
export const success = z.object({ success: z.literal(true) });
