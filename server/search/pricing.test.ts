import { describe, expect, it } from 'vitest';
import { DURATION_YEARS, priceCents, RESERVED_NAMES, SUPPORTED_TLDS, TLD_PRICES_CENTS } from './pricing.ts';
import { parseDomainName } from '#core/names/index.ts';

describe('the price table', () => {
  it('sells the common endings, each between 5.00 and 60.00 a year', () => {
    expect(SUPPORTED_TLDS).toEqual(expect.arrayContaining(['com', 'net', 'org', 'io', 'xyz', 'dev', 'app']));
    for (const [tld, cents] of Object.entries(TLD_PRICES_CENTS)) {
      expect(cents, tld).toBeGreaterThanOrEqual(500);
      expect(cents, tld).toBeLessThanOrEqual(6000);
    }
  });

  it('charges per year and knows nothing of endings it does not sell', () => {
    expect(priceCents('com', 3)).toBe(3750);
    expect(priceCents('museum', 1)).toBeNull();
    expect(priceCents('constructor', 1)).toBeNull();
    expect(DURATION_YEARS).toEqual({ min: 1, max: 10 });
  });

  it('reserves only well-formed names', () => {
    for (const name of RESERVED_NAMES) expect(parseDomainName(name)).toMatchObject({ ok: true, name });
  });
});
