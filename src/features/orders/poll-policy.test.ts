import { describe, expect, it } from 'vitest';
import { FIRST_POLL_MS, nextPollDelay, POLL_INTERVAL_MS, MAX_POLL_BACKOFF_MS } from './poll-policy.ts';

describe('nextPollDelay', () => {
  it('polls every 5 s while an order is created or processing', () => {
    expect(nextPollDelay({ status: 'CREATED', errorCount: 0, hidden: false })).toBe(5000);
    expect(nextPollDelay({ status: 'PROCESSING', errorCount: 0, hidden: false })).toBe(5000);
    expect(POLL_INTERVAL_MS).toBe(5000);
  });

  it('asks sooner about an order known only from its create answer, then at the normal pace', () => {
    expect(nextPollDelay({ status: 'CREATED', errorCount: 0, hidden: false, fromCreate: true })).toBe(FIRST_POLL_MS);
    expect(FIRST_POLL_MS).toBeLessThan(POLL_INTERVAL_MS);
    expect(nextPollDelay({ status: 'CREATED', errorCount: 0, hidden: false, fromCreate: false })).toBe(5000);
    expect(nextPollDelay({ status: 'CREATED', errorCount: 1, hidden: false, fromCreate: true })).toBe(10_000);
    expect(nextPollDelay({ status: 'CREATED', errorCount: 0, hidden: true, fromCreate: true })).toBe(false);
  });

  it('keeps polling before the first answer arrives', () => {
    expect(nextPollDelay({ status: undefined, errorCount: 0, hidden: false })).toBe(5000);
  });

  it.each(['SUCCEEDED', 'FAILED', 'CANCELLED', 'PARTIALLY_COMPLETED'])('stops for good at %s', (status) => {
    expect(nextPollDelay({ status, errorCount: 0, hidden: false })).toBe(false);
    expect(nextPollDelay({ status, errorCount: 3, hidden: true })).toBe(false);
  });

  it('pauses while the tab is hidden', () => {
    expect(nextPollDelay({ status: 'PROCESSING', errorCount: 0, hidden: true })).toBe(false);
  });

  it('backs off exponentially after errors, capped at a minute', () => {
    const delays = [1, 2, 3, 4, 10].map((errorCount) => nextPollDelay({ status: 'PROCESSING', errorCount, hidden: false }));
    expect(delays).toEqual([10_000, 20_000, 40_000, MAX_POLL_BACKOFF_MS, MAX_POLL_BACKOFF_MS]);
  });

  it('returns to the normal pace once a poll succeeds again', () => {
    expect(nextPollDelay({ status: 'PROCESSING', errorCount: 0, hidden: false })).toBe(5000);
  });
});
