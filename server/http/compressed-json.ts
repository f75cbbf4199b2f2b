import { parseAccept } from 'hono/utils/accept';
import type { Encoding } from '../support/compressed-json.ts';

// The JSON text with its compressed forms (server/support/compressed-json.ts) is a cache of the domain's
// (server/dns/zone-read.ts keeps one per zone version); choosing the form a request accepts is HTTP's.

/** The encodings a request's Accept-Encoding allows (a q of 0 refuses; `*` allows both). */
export function acceptedEncodings(header: string | undefined): Set<Encoding> {
  const accepted = new Set<Encoding>();
  if (!header) return accepted;
  const entries = parseAccept(header);
  const wildcard = entries.find((entry) => entry.type === '*');
  for (const encoding of ['br', 'gzip'] as const) {
    const explicit = entries.find((entry) => entry.type.toLowerCase() === encoding);
    if ((explicit ?? wildcard)?.q) accepted.add(encoding);
  }
  return accepted;
}
