import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { expiryState, restoreFeeFor, type ExpiryStatus } from './expiry.ts';

const DAY = 86_400_000;
const ORDER: ExpiryStatus[] = ['active', 'grace', 'redemption', 'released'];
const policy = fc.record({ graceDays: fc.integer({ min: 0, max: 365 }), redemptionDays: fc.integer({ min: 0, max: 365 }) });
const time = fc.integer({ min: 0, max: 8.64e15 / 2 });

describe('expiryState', () => {
  it('is the state whose window holds now, each window beginning where the previous ends', () => {
    fc.assert(
      fc.property(time, time, policy, (e, n, p) => {
        const s = expiryState(new Date(e), new Date(n), p);
        expect(s.graceEndsAt.getTime()).toBe(e + p.graceDays * DAY);
        expect(s.redemptionEndsAt.getTime()).toBe(e + (p.graceDays + p.redemptionDays) * DAY);
        const expected = n < e ? 'active' : n < s.graceEndsAt.getTime() ? 'grace' : n < s.redemptionEndsAt.getTime() ? 'redemption' : 'released';
        expect(s.status).toBe(expected);
      }),
    );
  });

  it('only ever moves forward as time passes', () => {
    fc.assert(
      fc.property(time, time, fc.integer({ min: 0, max: 1e12 }), policy, (e, n, later, p) => {
        const a = expiryState(new Date(e), new Date(n), p).status;
        const b = expiryState(new Date(e), new Date(n + later), p).status;
        expect(ORDER.indexOf(b)).toBeGreaterThanOrEqual(ORDER.indexOf(a));
      }),
    );
  });

  it('puts each boundary in the state it starts', () => {
    const e = new Date('2027-01-01T00:00:00Z');
    const p = { graceDays: 30, redemptionDays: 30 };
    expect(expiryState(e, new Date(e.getTime() - 1), p).status).toBe('active');
    expect(expiryState(e, e, p).status).toBe('grace');
    expect(expiryState(e, new Date(e.getTime() + 30 * DAY), p).status).toBe('redemption');
    expect(expiryState(e, new Date(e.getTime() + 60 * DAY), p).status).toBe('released');
  });

  it('charges the restore fee in redemption alone', () => {
    expect(restoreFeeFor('redemption', 80)).toEqual({ amount: 80, currency: 'USD' });
    for (const s of ['active', 'grace', 'released'] as const) expect(restoreFeeFor(s, 80)).toBeNull();
  });
});
