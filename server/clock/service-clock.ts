import type { Database, Queryable } from '../db/database.ts';
import { startPollLoop } from '../support/poll-loop.ts';

/**
 * The service's clock: the real time, plus the test clock's offset when DEV_CONTROLS is on. Every reader of time in
 * the service (sessions, envelope windows, orders, expiry) asks `now()`, so moving the offset moves them all at once.
 * The offset lives in the database (`dev_clock`), so every instance on one database reads one clock: the instance that
 * moves it announces the new offset on `namefi_clock` and the others take it at once; without a subscription (or after
 * it broke) each instance reads it again every second.
 */
export interface ServiceClock {
  now(): Date;
  /** How far the clock runs ahead of the real one. */
  offsetMs(): number;
  /** Moves the clock forward by `seconds` on every instance (and the local chain through `onAdvance`); answers the new now. */
  advance(seconds: number): Promise<Date>;
  stop(): Promise<void>;
}

const CHANNEL = 'namefi_clock';
const POLL_MS = 1000;

/** The real clock: what a service without DEV_CONTROLS runs on. */
export function realClock(): ServiceClock {
  return {
    now: () => new Date(),
    offsetMs: () => 0,
    advance: () => Promise.reject(new Error('The test clock is off (DEV_CONTROLS is not true)')),
    stop: async () => {},
  };
}

async function readOffset(q: Queryable): Promise<number> {
  const [row] = await q.query<{ offset_ms: string | number }>('SELECT offset_ms FROM dev_clock WHERE id = 1');
  return Number(row?.offset_ms ?? 0);
}

/**
 * The test clock, shared through the database. `onAdvance` is told each move (in seconds) after it committed: the
 * local chain's block time follows it, and the expiry worker looks again.
 */
export async function testClock(db: Database, options: { onAdvance?: (seconds: number) => Promise<void> | void } = {}): Promise<ServiceClock> {
  let offset = await readOffset(db);
  let subscribed = false;
  let stopListening: (() => Promise<void>) | null = null;
  const take = (value: number) => {
    // The clock only moves forward, whichever announcement arrives first.
    if (Number.isFinite(value) && value > offset) offset = value;
  };
  if (db.listen) {
    stopListening = await db
      .listen(
        CHANNEL,
        (payload) => take(Number(payload)),
        () => {
          subscribed = false;
        },
      )
      .then((stop) => {
        subscribed = true;
        return stop;
      })
      .catch(() => null);
  }
  // Unsubscribed, the offset is read again every POLL_MS; a failed read waits for the next.
  const poll = startPollLoop(async () => (subscribed ? undefined : take(await readOffset(db))), { pollMs: POLL_MS, firstMs: POLL_MS });
  return {
    now: () => new Date(Date.now() + offset),
    offsetMs: () => offset,
    async advance(seconds) {
      const ms = Math.round(seconds * 1000);
      const [row] = await db.query<{ offset_ms: string | number }>(
        `UPDATE dev_clock SET offset_ms = offset_ms + $1, updated_at = now() WHERE id = 1 RETURNING offset_ms`,
        [ms],
      );
      const next = Number(row.offset_ms);
      await db.query('SELECT pg_notify($1, $2)', [CHANNEL, String(next)]);
      take(next);
      await options.onAdvance?.(seconds);
      return new Date(Date.now() + offset);
    },
    async stop() {
      await poll.stop();
      await stopListening?.();
    },
  };
}
