import type { Hono } from 'hono';
import { z } from 'zod';
import { API_PREFIX } from '../http/router.ts';
import { errorBody } from '../http/errors.ts';
import type { ServiceClock } from '../clock/service-clock.ts';

/** At most ten years a step: enough for any life of a domain, and never a Date past the year 275760. */
const MAX_ADVANCE_SECONDS = 10 * 366 * 86400;
const advanceInput = z.strictObject({ advanceSeconds: z.number().int().min(1).max(MAX_ADVANCE_SECONDS) });

/**
 * The test clock's two routes, mounted only with DEV_CONTROLS=true (otherwise they do not exist: 404). They are not
 * operations of the contract's table: the table is what production answers and what the OpenAPI document, the
 * fuzz and the signed type registry derive from, and a development control belongs to none of them. Unsigned: a
 * development service on loopback, where anyone who reaches it may move its time.
 */
export function mountDevClock(app: Hono, clock: ServiceClock): void {
  const path = `${API_PREFIX}/dev/clock`;
  app.get(path, (c) => c.json({ now: clock.now().toISOString(), offsetSeconds: Math.round(clock.offsetMs() / 1000) }));
  app.post(path, async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json(errorBody(400, 'The request body is not valid JSON: send {"advanceSeconds": n}'), 400);
    }
    const parsed = advanceInput.safeParse(body);
    if (!parsed.success) {
      return c.json(errorBody(400, `advanceSeconds: a whole number of seconds from 1 to ${MAX_ADVANCE_SECONDS} (ten years)`), 400);
    }
    const now = await clock.advance(parsed.data.advanceSeconds);
    return c.json({ now: now.toISOString(), offsetSeconds: Math.round(clock.offsetMs() / 1000) });
  });
}
