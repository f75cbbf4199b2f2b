import type { RegisterDomainInput } from '#core/wire/orders.ts';
import { parseDomainName } from '#core/names/index.ts';
import { invalidInput } from '../domain-errors.ts';

/** What the local service sells: yearly prices per TLD in US cents (1 credit = 1 USD), and how long a registration may run. */
export const TLD_PRICES_CENTS: Readonly<Record<string, number>> = {
  com: 1250,
  net: 1400,
  org: 1100,
  io: 4500,
  xyz: 600,
  dev: 1500,
  app: 1800,
  ai: 6000,
  co: 2800,
  me: 1900,
  info: 900,
};

export const SUPPORTED_TLDS: readonly string[] = Object.keys(TLD_PRICES_CENTS);

/** Every TLD of the table accepts the same range. */
export const DURATION_YEARS = { min: 1, max: 10 } as const;

/** Names held back from sale: well-known brands and the documentation domains. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  'google.com',
  'namefi.io',
  'namefi.dev',
  'example.com',
  'example.net',
  'example.org',
  'ethereum.org',
  'localhost.dev',
]);

export function yearlyPriceCents(tld: string): number | null {
  return Object.hasOwn(TLD_PRICES_CENTS, tld) ? TLD_PRICES_CENTS[tld] : null;
}

export function priceCents(tld: string, years: number): number | null {
  const yearly = yearlyPriceCents(tld);
  return yearly === null ? null : yearly * years;
}

export const centsToUsd = (cents: number) => cents / 100;
export const formatUsd = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

/** The name as sold and its price for the duration, or a refused input saying which of the two is wrong. */
export function checkNameAndDuration(input: RegisterDomainInput): { name: string; amountCents: number } {
  const parsed = parseDomainName(input.normalizedDomainName);
  if (!parsed.ok) throw invalidInput({ normalizedDomainName: [parsed.reason] });
  if (parsed.name !== input.normalizedDomainName) {
    throw invalidInput({ normalizedDomainName: [`Send the normalized name: ${parsed.name}`] });
  }
  const { min, max } = DURATION_YEARS;
  if (input.durationInYears < min || input.durationInYears > max) {
    throw invalidInput({ durationInYears: [`${parsed.name} registers for ${min} to ${max} years`] });
  }
  const amountCents = priceCents(parsed.tld, input.durationInYears);
  if (amountCents === null) throw invalidInput({ normalizedDomainName: [`.${parsed.tld} names are not sold here`] });
  return { name: parsed.name, amountCents };
}
