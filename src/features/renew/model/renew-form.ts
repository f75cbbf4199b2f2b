import { z } from 'zod';
import { addYears } from '#core/dates.ts';
import { maxRenewalYears, RENEWAL_YEARS, type RenewalQuote } from '#core/wire/orders.ts';

export const years = (n: number) => `${n} year${n === 1 ? '' : 's'}`;

/** A date as people say it, in UTC (the service's expiries are UTC): "26 November 2027". */
export const dateInWords = (iso: string | Date) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** How many years every one of the names may still be renewed for (the smallest of their limits). */
export function maxYearsOf(quotes: readonly RenewalQuote[]): number {
  return quotes.length === 0 ? RENEWAL_YEARS.max : Math.min(...quotes.map(maxRenewalYears));
}

/**
 * The form's rule is the service's: 1 to 10 whole years, and the new expiry no more than 10 years from now. Said at
 * the field, with the date that limit falls on.
 */
export function renewFormSchema(quotes: readonly RenewalQuote[]) {
  const max = maxYearsOf(quotes);
  const latest = quotes[0]?.latestExpiresAt;
  const tooFar =
    max === 0
      ? `Already renewed as far as allowed: a domain may be renewed until ${latest ? dateInWords(latest) : '10 years from now'} at most`
      : `At most ${years(max)}: a domain may be renewed until ${latest ? dateInWords(latest) : '10 years from now'} at most (10 years from today)`;
  return z.object({
    durationInYears: z
      .number({ error: 'Enter a whole number of years' })
      .int('Enter a whole number of years')
      .min(RENEWAL_YEARS.min, 'At least 1 year')
      .max(Math.max(max, 0), tooFar),
  });
}
export type RenewForm = z.infer<ReturnType<typeof renewFormSchema>>;

/** One name's renewal in words: the new expiry and its price. */
export function renewalOf(quote: RenewalQuote, n: number): { newExpiry: string; cents: number } {
  return { newExpiry: dateInWords(addYears(new Date(quote.expiresAt), n)), cents: quote.renewalPriceInUSDCentsPerYear * n + (quote.restoreFeeInUSDCents ?? 0) };
}
