import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as dnsPacket from 'dns-packet';
import { errorBody } from './errors.ts';
import { answerCache, cachedAnswer, type AnswerCache } from '../dns-server/server.ts';
import { withId } from '../dns-server/packet-cache.ts';
import type { ZoneSource } from '../dns-server/zone-source.ts';
import { noCounting, type QueryCounter } from '../dns-server/query-counts.ts';

const MESSAGE = 'application/dns-message';
const MAX_MESSAGE = 65535;

/**
 * Whether the request asks for an answer of now, kept by no cache: a fetch with `cache: 'no-store'` (or 'reload', 'no-cache')
 * sends `Cache-Control: no-cache` and `Pragma: no-cache`; the dashboard's live checks ask so.
 */
function asksNow(headers: Headers): boolean {
  const cacheControl = (headers.get('cache-control') ?? '').toLowerCase();
  return /\bno-(cache|store)\b|\bmax-age=0\b/.test(cacheControl) || (headers.get('pragma') ?? '').toLowerCase().includes('no-cache');
}

/** The smallest TTL of an answer: how long an HTTP cache may keep it (RFC 8484 §5.1). */
function maxAge(response: Buffer): number {
  const packet = dnsPacket.decode(response);
  const ttls = [...(packet.answers ?? []), ...(packet.authorities ?? [])].map((a) => (a as { ttl?: number }).ttl ?? 0);
  return ttls.length === 0 ? 0 : Math.min(...ttls);
}

/**
 * DNS over HTTPS (RFC 8484) on the HTTP service: `GET /dns-query?dns=<base64url>` and `POST /dns-query` with an
 * application/dns-message body, answered from the same zones and the same packet cache as the UDP/TCP server (the
 * cache keeps the whole answer beside the one fitted to UDP). Zone transfers are refused here.
 */
export function mountDoh(app: Hono, zones: ZoneSource, counter: QueryCounter = noCounting, cache: AnswerCache = answerCache(zones)): void {
  const answer = async (bytes: Buffer, request: Request) => {
    const answered = await cachedAnswer(bytes, zones, cache);
    if (!answered) return new Response(JSON.stringify(errorBody(400, 'The body is not a DNS message')), { status: 400, headers: { 'content-type': 'application/json' } });
    const { entry } = answered;
    if (entry.meta) counter.count(entry.meta, 'doh');
    // RFC 8484 §5.1: no longer than the smallest TTL; a check of now is kept by no cache at all.
    const cacheControl = asksNow(request.headers) ? 'no-store' : `max-age=${maxAge(entry.full)}`;
    return new Response(new Uint8Array(withId(entry.full, bytes)), { status: 200, headers: { 'content-type': MESSAGE, 'cache-control': cacheControl } });
  };
  app.get('/dns-query', async (c) => {
    const dns = c.req.query('dns');
    if (!dns || !/^[A-Za-z0-9_-]+$/.test(dns)) return c.json(errorBody(400, 'Give the DNS query in the dns parameter, base64url without padding (RFC 8484)'), 400);
    const bytes = Buffer.from(dns, 'base64url');
    if (bytes.length > MAX_MESSAGE) return c.json(errorBody(413, 'A DNS message is at most 65,535 bytes'), 413);
    return answer(bytes, c.req.raw);
  });
  // Refused from its Content-Length before a byte is read, or as soon as a chunked body grows past the limit.
  const limit = bodyLimit({ maxSize: MAX_MESSAGE, onError: (c) => c.json(errorBody(413, 'A DNS message is at most 65,535 bytes'), 413) });
  app.post('/dns-query', limit, async (c) => {
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith(MESSAGE)) {
      return c.json(errorBody(415, `Send the query as ${MESSAGE} (RFC 8484)`), 415);
    }
    const bytes = Buffer.from(await c.req.arrayBuffer());
    if (bytes.length > MAX_MESSAGE) return c.json(errorBody(413, 'A DNS message is at most 65,535 bytes'), 413);
    return answer(bytes, c.req.raw);
  });
}
