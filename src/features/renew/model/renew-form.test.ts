import { describe, expect, it } from 'vitest';
import type { RenewalQuote } from '#core/wire/orders.ts';
import { dateInWords, maxYearsOf, renewalOf, renewFormSchema } from './renew-form.ts';

const quote = (expiresAt: string, latestExpiresAt = '2036-11-26T09:00:00.000Z'): RenewalQuote => ({
  normalizedDomainName: 'a.com',
  ownerAddress: '0xabc',
  expiresAt,
  renewalPriceInUSDCentsPerYear: 1250,
  latestExpiresAt,
});

describe('the renew form', () => {
  it('says the new expiry and the price of n years', () => {
    expect(renewalOf(quote('2027-11-26T08:00:00.000Z'), 2)).toEqual({ newExpiry: '26 November 2029', cents: 2500 });
    expect(dateInWords('2028-02-29T00:00:00.000Z')).toBe('29 February 2028');
  });

  it('allows at most the years that keep the new expiry within 10 years of now, and says so at the field', () => {
    expect(maxYearsOf([quote('2027-11-26T08:00:00.000Z')])).toBe(9);
    expect(maxYearsOf([quote('2027-11-26T08:00:00.000Z'), quote('2030-01-01T00:00:00.000Z')])).toBe(6);
    const schema = renewFormSchema([quote('2027-11-26T08:00:00.000Z')]);
    expect(schema.safeParse({ durationInYears: 9 }).success).toBe(true);
    const refused = schema.safeParse({ durationInYears: 10 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].message).toBe('At most 9 years: a domain may be renewed until 26 November 2036 at most (10 years from today)');
    expect(schema.safeParse({ durationInYears: 0 }).error?.issues[0].message).toBe('At least 1 year');
    expect(schema.safeParse({ durationInYears: 1.5 }).error?.issues[0].message).toBe('Enter a whole number of years');
  });

  it('says when a name cannot be renewed any further', () => {
    const schema = renewFormSchema([quote('2036-11-01T00:00:00.000Z')]);
    expect(schema.safeParse({ durationInYears: 1 }).error?.issues[0].message).toMatch(/^Already renewed as far as allowed/);
  });
});
