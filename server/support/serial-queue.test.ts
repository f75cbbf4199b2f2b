import { describe, expect, it } from 'vitest';
import { serialQueue } from './serial-queue.ts';

describe('serialQueue', () => {
  it('runs one at a time in call order, and a failure neither stops nor reorders the rest', async () => {
    const serial = serialQueue();
    const events: string[] = [];
    const job = (name: string, ms: number, fail = false) =>
      serial(async () => {
        events.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        events.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([job('a', 20), job('b', 1, true), job('c', 5)]);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['a', 'b', 'c']);
    expect(results[1].status).toBe('rejected');
  });
});
