import type { Services } from '../services.ts';
import { startPollLoop } from '../support/poll-loop.ts';
import { finishOrder, startOrder } from './processing.ts';

export interface OrderWorker {
  /** Look for work now (an order was just created). */
  wake(): void;
  /** Stops polling and waits for the work in flight. */
  stop(): Promise<void>;
}

export interface WorkerOptions {
  /** Orders handled per round; the rest wait for the next round. */
  batchSize?: number;
  /** The longest wait between two looks at the database. */
  pollMs?: number;
}

/**
 * Moves orders through their states. All state is in the database: the worker looks for CREATED orders and
 * for PROCESSING orders whose ORDER_PROCESSING_MS has passed, so after a restart it resumes where it stopped, and
 * several instances on one database share the work: each step locks its order for one transaction, the lock is
 * the claim, and a claim dies with the instance that held it (no lease to wait out).
 */
export function startOrderWorker(services: Services, options: WorkerOptions = {}): OrderWorker {
  const batchSize = options.batchSize ?? 4;
  const pollMs = options.pollMs ?? 1000;
  const processingMs = services.config.ORDER_PROCESSING_MS;

  /** Does the due work, batch by batch; answers how long to wait before the next look. */
  async function round(stopped: () => boolean): Promise<number> {
    for (;;) {
      if (stopped()) return pollMs;
      const dueBefore = new Date(services.now().getTime() - processingMs).toISOString();
      // SKIP LOCKED passes over orders whose step another worker (of any instance) is running: it is theirs while
      // their transaction lives, and PostgreSQL ends that transaction when their process dies, so the order comes
      // back here as it stood. The steps skip a held order too, rather than queue behind it.
      const created = await services.db.query<{ id: string }>(
        `SELECT id FROM orders WHERE status = 'CREATED' ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize],
      );
      const due = await services.db.query<{ id: string }>(
        `SELECT id FROM orders WHERE status = 'PROCESSING' AND started_at <= $1 ORDER BY started_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [dueBefore, batchSize],
      );
      if (created.length === 0 && due.length === 0) break;
      const done = await Promise.all([...created.map((o) => step(startOrder, o.id)), ...due.map((o) => step(finishOrder, o.id))]);
      // Orders that keep failing are left for a later round rather than retried in a tight loop.
      if (!done.some(Boolean)) break;
    }
    const [next] = await services.db.query<{ started_at: Date | string | null }>(`SELECT MIN(started_at) AS started_at FROM orders WHERE status = 'PROCESSING'`);
    if (!next?.started_at) return pollMs;
    const wait = new Date(next.started_at).getTime() + processingMs - services.now().getTime();
    return Math.min(pollMs, Math.max(0, wait) + 1);
  }

  /** One order's failure must not stop the others; it is tried again on a later round. */
  async function step(fn: (s: Services, id: string) => Promise<void>, id: string): Promise<boolean> {
    try {
      await fn(services, id);
      return true;
    } catch (error) {
      console.error(`Order worker: order ${id}:`, error);
      return false;
    }
  }

  const loop = startPollLoop(round, { pollMs, onError: (error) => console.error('Order worker:', error) });
  return {
    wake: () => void loop.wake(),
    stop: loop.stop,
  };
}
