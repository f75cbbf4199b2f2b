import { describe, expect, it } from 'vitest';
import { formatUsdCents, shortAddress } from './format.ts';

describe('shortAddress', () => {
  it('keeps the first four and last four characters of a long address', () => {
    expect(shortAddress('0xAbCd000000000000000000000000000000001234')).toBe('0xAb…1234');
    expect(shortAddress('0x12345678')).toBe('0x12345678');
  });
});

describe('formatUsdCents', () => {
  it('shows cents as dollars with two decimals and thousands separators', () => {
    expect(formatUsdCents(0)).toBe('$0.00');
    expect(formatUsdCents(1234)).toBe('$12.34');
    expect(formatUsdCents(123456789)).toBe('$1,234,567.89');
  });
});
