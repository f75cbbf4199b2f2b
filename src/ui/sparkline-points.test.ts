import { describe, expect, it } from 'vitest';
import { sparklinePoints } from './sparkline-points.ts';

describe('a sparkline', () => {
  it('spreads the values across the width, the largest at the top and zero at the bottom', () => {
    expect(sparklinePoints([0, 5, 10], 42, 22)).toBe('1,21 21,11 41,1');
  });

  it('lays a line of zeros flat on the bottom, and draws nothing for no values', () => {
    expect(sparklinePoints([0, 0, 0], 42, 22)).toBe('1,21 21,21 41,21');
    expect(sparklinePoints([], 42, 22)).toBe('');
  });
});
