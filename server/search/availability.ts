import type { Queryable } from '../db/database.ts';
import type { Availability } from '#core/wire/search.ts';
import { parseDomainName } from '#core/names/index.ts';
import { expiryState, restoreFeeFor, type ExpiryPolicy } from '#core/expiry.ts';
import { centsToUsd, DURATION_YEARS, RESERVED_NAMES, SUPPORTED_TLDS, yearlyPriceCents } from './pricing.ts';

/** Statuses in which an order still holds its domain. */
const PENDING_STATUSES = ['CREATED', 'PROCESSING'] as const;

const usd = (cents: number) => ({ type: 'PER_YEAR' as const, price: { amount: centsToUsd(cents), currency: 'USD' as const } });

/**
 * Availability of each typed name, in the order given, with two queries in all (registered, pending) however
 * many names are asked about.
 */
/** What the restore fee depends on: the service's clock, the expiry policy and the fee (RESTORE_FEE). */
export interface ExpiryPricing {
  now: Date;
  policy: ExpiryPolicy;
  restoreFee: number;
}

export async function checkNames(q: Queryable, inputs: readonly string[], expiry?: ExpiryPricing): Promise<Availability[]> {
  const parsed = inputs.map((input) => ({ input, result: parseDomainName(input) }));
  const names = [...new Set(parsed.flatMap(({ result }) => (result.ok ? [result.name] : [])))];
  const [registered, pending] = names.length === 0 ? [new Map<string, Date>(), new Set<string>()] : await lookUp(q, names);

  return parsed.map(({ input, result }): Availability => {
    if (!result.ok) return { domain: input, availability: false, supported: false, importable: false, reason: result.reason };
    const yearly = yearlyPriceCents(result.tld);
    if (yearly === null) {
      return {
        domain: result.name,
        availability: false,
        supported: false,
        importable: false,
        reason: `.${result.tld} names are not sold here; try ${SUPPORTED_TLDS.slice(0, 4).map((t) => `.${t}`).join(', ')}`,
      };
    }
    const reason = registered.has(result.name)
      ? `${result.name} is already registered`
      : pending.has(result.name)
        ? `${result.name} has a pending order`
        : RESERVED_NAMES.has(result.name)
          ? `${result.name} is reserved`
          : undefined;
    const expiresAt = registered.get(result.name);
    const restoreFee = expiry && expiresAt ? restoreFeeFor(expiryState(expiresAt, expiry.now, expiry.policy).status, expiry.restoreFee) : null;
    return {
      domain: result.name,
      availability: reason === undefined,
      supported: true,
      importable: false,
      ...(reason ? { reason } : {}),
      pricingDetails: { registrationPrice: usd(yearly), renewalPrice: usd(yearly), ...(restoreFee ? { restoreFee } : {}) },
      durationValidationInYears: { ...DURATION_YEARS },
    };
  });
}

export async function checkName(q: Queryable, input: string, expiry?: ExpiryPricing): Promise<Availability> {
  const [result] = await checkNames(q, [input], expiry);
  return result;
}

async function lookUp(q: Queryable, names: string[]): Promise<[Map<string, Date>, Set<string>]> {
  const registered = await q.query<{ name: string; expires_at: Date | string }>('SELECT name, expires_at FROM domains WHERE name = ANY($1)', [names]);
  const pending = await q.query<{ name: string }>(
    'SELECT DISTINCT normalized_domain_name AS name FROM order_items WHERE normalized_domain_name = ANY($1) AND status = ANY($2)',
    [names, [...PENDING_STATUSES]],
  );
  return [new Map(registered.map((r) => [r.name, new Date(r.expires_at)])), new Set(pending.map((r) => r.name))];
}
