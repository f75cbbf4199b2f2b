import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** The share of all cores' time spent idle over the next `ms` milliseconds. */
async function idleShare(ms: number): Promise<number> {
  const totals = () =>
    cpus().reduce(
      (sum, cpu) => ({ idle: sum.idle + cpu.times.idle, all: sum.all + Object.values(cpu.times).reduce((a, b) => a + b, 0) }),
      { idle: 0, all: 0 },
    );
  const before = totals();
  await sleep(ms);
  const after = totals();
  return (after.idle - before.idle) / Math.max(1, after.all - before.all);
}

/**
 * Waits until the machine has been quiet (at least `idle` of its CPU time idle) for two consecutive seconds, or
 * `timeoutMs` has passed, and says how idle it was. A measurement simulated from real task times (Lighthouse's TBT)
 * reads a build or a browser still exiting as the page's own work; the load average, a one-minute mean, lags too far
 * behind to tell when that work has stopped.
 */
export async function waitForQuietCpu({ idle = 0.9, timeoutMs = 60_000 } = {}): Promise<{ idle: number; waitedMs: number }> {
  const started = Date.now();
  let last = 0;
  let quietSeconds = 0;
  while (quietSeconds < 2 && Date.now() - started < timeoutMs) {
    last = await idleShare(1_000);
    quietSeconds = last >= idle ? quietSeconds + 1 : 0;
  }
  return { idle: last, waitedMs: Date.now() - started };
}
