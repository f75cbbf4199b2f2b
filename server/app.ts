import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { bodyLimit } from 'hono/body-limit';
import { createHash, randomUUID } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { HttpError, errorBody } from './http/errors.ts';
import { RateLimiter } from './http/rate-limit.ts';
import { API_PREFIX, mountOperations } from './http/router.ts';
import type { Handlers, Services } from './http/context.ts';

export function createApp(services: Services, handlers: Handlers, extra?: (app: Hono) => void): Hono {
  const { config, headers } = services;
  const app = new Hono();
  const limiter = new RateLimiter(config.RATE_LIMIT_PER_MINUTE);

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

  app.use(
    '*',
    cors({
      origin: (origin) => (config.CORS_ORIGINS.some((pattern) => matchesOrigin(pattern, origin)) ? origin : null),
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowHeaders: ['content-type', 'x-request-id', ...Object.values(headers)],
      exposeHeaders: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'x-request-id'],
      maxAge: 600,
    }),
  );

  app.use(`${API_PREFIX}/*`, async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    const result = limiter.hit(rateKey(c.req.raw.headers, services, () => addressOf(c)));
    c.header('RateLimit-Limit', String(result.limit));
    c.header('RateLimit-Remaining', String(result.remaining));
    c.header('RateLimit-Reset', String(result.resetSeconds));
    if (!result.allowed) {
      c.header('Retry-After', String(result.resetSeconds));
      return c.json(errorBody(429, `Too many requests: at most ${result.limit} a minute. Try again in ${result.resetSeconds} s.`), 429);
    }
    return next();
  });

  app.use(
    `${API_PREFIX}/*`,
    bodyLimit({
      maxSize: config.BODY_LIMIT_BYTES,
      onError: (c) => c.json(errorBody(413, `The request body is larger than ${config.BODY_LIMIT_BYTES} bytes`), 413),
    }),
  );

  mountOperations(app, services, handlers);
  extra?.(app);

  app.notFound((c) => c.json(errorBody(404, `No operation at ${c.req.method} ${new URL(c.req.url).pathname}`), 404));
  app.onError((error, c) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(errorBody(error.status, error.message, error.data), error.status as 400);
    }
    console.error(`Unhandled error on ${c.req.method} ${new URL(c.req.url).pathname}:`, error);
    return c.json(errorBody(500), 500);
  });
  return app;
}

function addressOf(c: Parameters<typeof getConnInfo>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Per credential when one is sent (hashed, never kept in clear), else per client address. */
function rateKey(requestHeaders: Headers, services: Services, ip: () => string): string {
  const h = services.headers;
  const credential = requestHeaders.get(h.apiKey) ?? requestHeaders.get(h.siweToken) ?? requestHeaders.get(h.signer)?.toLowerCase();
  return credential ? `cred:${createHash('sha256').update(credential).digest('hex').slice(0, 32)}` : `ip:${ip()}`;
}

function matchesOrigin(pattern: string, origin: string): boolean {
  if (pattern === '*') return true;
  const regex = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  return regex.test(origin);
}
