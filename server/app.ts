import { Hono, type Context } from 'hono';
import { compress } from 'hono/compress';
import { cors } from 'hono/cors';
import { bodyLimit } from 'hono/body-limit';
import { randomUUID } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { HttpError, errorBody, httpErrorOf } from './http/errors.ts';
import { DomainError } from './domain-errors.ts';
import { rateLimitHeaders, rateLimitMessage, rateLimits, type RateLimitResult } from './http/rate-limit.ts';
import { clientAddressOf, clientBytesOf } from './http/client-address.ts';
import { addressText, parseCidr } from './net/addresses.ts';
import { DYNDNS_PATH, mountDynDns } from './routes/dyndns.ts';
import { budgetedVerifier } from './auth/contract-signatures.ts';
import { API_PREFIX, mountOperations } from './http/router.ts';
import type { Handlers } from './http/context.ts';
import type { Services } from './services.ts';
import { clientHeader } from '#core/headers.ts';
import { X402_REQUEST_HEADERS, X402_RESPONSE_HEADERS } from './x402/headers.ts';

export function createApp(services: Services, handlers: Handlers, extra?: (app: Hono) => void): Hono {
  const { config, headers } = services;
  const app = new Hono();
  const limits = rateLimits(config.RATE_LIMIT_PER_MINUTE, () => services.now().getTime());
  const trustedProxies = config.TRUSTED_PROXIES.map((entry) => parseCidr(entry)!);
  const clientOf = new WeakMap<Request, string>();

  app.use('*', async (c, next) => {
    const started = performance.now();
    const id = c.req.header('x-request-id') ?? randomUUID();
    c.header('x-request-id', id);
    await next();
    if (config.LOG_REQUESTS) {
      // Path only: query strings are not logged, and credentials only ever travel in headers.
      const ms = (performance.now() - started).toFixed(1);
      console.log(`${new Date().toISOString()} ${id.slice(0, 8)} ${c.req.method} ${new URL(c.req.url).pathname} ${c.res.status} ${ms}ms`);
    }
  });

  // Answers are compressed where the request accepts it (contract, Limits). A list the zone cache keeps compressed
  // already carries its Content-Encoding, which this leaves alone.
  app.use('*', compress());

  app.use(
    '*',
    cors({
      origin: (origin) => (config.CORS_ORIGINS.some((pattern) => matchesOrigin(pattern, origin)) ? origin : null),
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowHeaders: ['content-type', 'x-request-id', ...Object.values(headers), clientHeader(config.HEADER_PREFIX), ...X402_REQUEST_HEADERS],
      exposeHeaders: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'x-request-id', ...X402_RESPONSE_HEADERS],
      maxAge: 600,
    }),
  );

  // The client's address first, before the body is read or any credential looked at. DoH shares the API's budget.
  const clientBudget = async (c: Context, next: () => Promise<void>) => {
    if (c.req.method === 'OPTIONS') return next();
    const address = clientAddressOf(peerOf(c), c.req.header('x-forwarded-for'), trustedProxies);
    clientOf.set(c.req.raw, address);
    const result = limits.client(address);
    for (const [name, value] of Object.entries(rateLimitHeaders(result))) c.header(name, value);
    if (!result.allowed) return c.json(errorBody(429, rateLimitMessage(result)), 429);
    return next();
  };
  app.use(`${API_PREFIX}/*`, clientBudget);
  app.use('/dns-query', clientBudget);
  app.use(DYNDNS_PATH, clientBudget);

  // A budget's headers replace the ones already set when they are tighter; a refusal is a 429 with them. It is thrown
  // as a DomainError: a contract account's signature check spends the budget from inside server/auth, which lets it
  // through as it is.
  const charge = (c: Context, result: RateLimitResult) => {
    if (result.allowed && result.remaining >= Number(c.res.headers.get('RateLimit-Remaining') ?? Infinity)) return;
    for (const [name, value] of Object.entries(rateLimitHeaders(result))) c.header(name, value);
    if (!result.allowed) throw new DomainError('too-many-requests', rateLimitMessage(result), undefined, result.resetSeconds);
  };

  app.use(
    `${API_PREFIX}/*`,
    bodyLimit({
      maxSize: config.BODY_LIMIT_BYTES,
      onError: (c) => c.json(errorBody(413, `The request body is larger than ${config.BODY_LIMIT_BYTES} bytes`), 413),
    }),
  );

  mountOperations(app, services, handlers, {
    // Then the wallet a verified credential acts as; its headers replace the client's when they are tighter.
    onAuthenticated: (c, principal) => charge(c, limits.wallet(principal.wallet)),
    clientAddress: (c) => clientOf.get(c.req.raw),
    // A contract account's signature is checked by calls to the chain, run with code the sender chose: each call
    // costs the client one unit more, charged before it is made.
    servicesFor(c) {
      const verifier = services.contractSignatures;
      if (!verifier) return services;
      const address = clientOf.get(c.req.raw) ?? 'unknown';
      const spend = () => charge(c, limits.client(address));
      return { ...services, contractSignatures: budgetedVerifier(verifier, { spend, timeoutMs: config.CONTRACT_CALL_TIMEOUT_MS }) };
    },
  });
  // DynDNS2 (contract: The standard doors): the address set when `myip` is absent is the sender's own, by the same walk.
  mountDynDns(app, services, (c) => {
    const sender = clientBytesOf(peerOf(c), c.req.header('x-forwarded-for'), trustedProxies);
    return sender ? addressText(sender) : null;
  });
  extra?.(app);

  app.notFound((c) => c.json(errorBody(404, `No operation at ${c.req.method} ${new URL(c.req.url).pathname}`), 404));
  app.onError((error, c) => {
    // DomainError first: the HttpError shim counts one as an HttpError too.
    const refusal = error instanceof DomainError ? httpErrorOf(error) : error instanceof HttpError ? error : null;
    if (refusal) {
      for (const [name, value] of Object.entries(refusal.headers)) c.header(name, value);
      return c.json(errorBody(refusal.status, refusal.message, refusal.data), refusal.status as 400);
    }
    console.error(`Unhandled error on ${c.req.method} ${new URL(c.req.url).pathname}:`, error);
    return c.json(errorBody(500), 500);
  });
  return app;
}

function peerOf(c: Parameters<typeof getConnInfo>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function matchesOrigin(pattern: string, origin: string): boolean {
  if (pattern === '*') return true;
  const regex = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  return regex.test(origin);
}
