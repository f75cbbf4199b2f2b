import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clockOffsetMs, serviceNowSeconds } from './service-clock.ts';

describe('the service clock as the dashboard reads it', () => {
  it('is the service’s answer less the round trip’s midpoint; an unreadable answer is no offset', () => {
    const day = 86_400_000;
    expect(clockOffsetMs(new Date(1_000_000 + 50 + day).toISOString(), 1_000_000, 1_000_100)).toBe(day);
    expect(clockOffsetMs('not a date', 0, 10)).toBe(0);
  });

  it('stamps with the service’s time: within a second of device time plus the offset', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 0, max: 3e11 }), (device, offset) => {
        const stamped = serviceNowSeconds(offset, device);
        expect(Math.abs(stamped * 1000 - (device + offset))).toBeLessThan(1000);
        expect(stamped * 1000).toBeLessThanOrEqual(device + offset);
      }),
    );
  });
});
