import { describe, expect, it } from 'vitest';
import { ApiError } from './api/errors.ts';
import { isServiceTrouble, recoveryInterval, RECOVERY_MAX_MS } from './query-recovery.ts';

const away = new ApiError({ status: 0, code: 'NETWORK_ERROR', message: 'Failed to fetch' });
const broken = new ApiError({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'down' });
const refused = new ApiError({ status: 404, code: 'NOT_FOUND', message: 'no such zone' });
const failed = (error: unknown, errorUpdateCount = 1) => ({ status: 'error', error, errorUpdateCount, dataUpdatedAt: 1_000, errorUpdatedAt: 2_000 });

describe('recovering queries', () => {
  it('tells service trouble from a refusal', () => {
    expect([away, broken, refused, new Error('x')].map(isServiceTrouble)).toEqual([true, true, false, false]);
  });
  it('asks again after service trouble, waiting longer each round, up to half a minute', () => {
    expect([1, 2, 3, 4, 5, 50].map((n) => recoveryInterval(failed(away, n)))).toEqual([3_000, 6_000, 12_000, 24_000, RECOVERY_MAX_MS, RECOVERY_MAX_MS]);
    expect(recoveryInterval(failed(broken))).toBe(3_000);
  });
  it('does not repeat a refusal, and stops once an answer came back', () => {
    expect(recoveryInterval(failed(refused))).toBe(false);
    expect(recoveryInterval({ ...failed(away), status: 'success' })).toBe(false);
    expect(recoveryInterval({ ...failed(away), dataUpdatedAt: 3_000 })).toBe(false);
  });
});
