import { describe, expect, it } from 'vitest';
import { nextPollDelay, POLL_INTERVAL_MS, MAX_POLL_BACKOFF_MS } from './poll-policy.ts';

describe('nextPollDelay', () => {
  it('polls every 5 s while an order is created or processing', () => {
    expect(nextPollDelay({ status: 'CREATED', errorCount: 0, hidden: false })).toBe(5000);
    expect(nextPollDelay({ status: 'PROCESSING', errorCount: 0, hidden: false })).toBe(5000);
    expect(POLL_INTERVAL_MS).toBe(5000);
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
