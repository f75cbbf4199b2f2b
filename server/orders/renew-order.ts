import { randomUUID } from 'node:crypto';
import type { Principal, Services } from '../services.ts';
import type { Queryable } from '../db/database.ts';
import { conflict, invalidInput, notFound } from '../domain-errors.ts';
import { addYears } from '#core/dates.ts';
import { latestExpiry, type CreatedOrder, type RenewalQuote, type RenewDomainInput } from '#core/wire/orders.ts';
import { parseDomainName } from '#core/names/index.ts';
import { formatUsd, priceCents } from '../search/pricing.ts';
import { requireCredit } from './create-order.ts';
import { crashPoint } from '../chain/crash-points.ts';
import { toOrder, toOrderItem, type OrderItemRow, type OrderRow } from './repository.ts';
import { expiryState, restoreFeeFor } from '#core/expiry.ts';
import { expiryPolicy } from '../zones/expiry.ts';

/**
 * What a renewal order's item carries from its creation to its end: the expiry it extends and the one it sets. The
 * worker sets `newExpiresAt` (an absolute value, on the chain too), so a retried step never extends twice.
 */
interface RenewalTerms {
  previousExpiresAt: string;
  newExpiresAt: string;
}

interface RenewalRequest {
  /** The wallet that pays: anyone may renew any registered name (a gift); ownership does not change. */
  wallet: string;
  name: string;
  years: number;
  /** Merged into the order's metadata (`{autoRenew: true}` for the service's own renewals). */
  metadata?: Record<string, unknown>;
}

/** The renewal's price in cents: the TLD's renewal price for each year, or a 400 naming the field at fault. */
function renewalPriceCents(name: string, years: number): number {
  const parsed = parseDomainName(name);
  if (!parsed.ok) throw invalidInput({ normalizedDomainName: [parsed.reason] });
  if (parsed.name !== name) throw invalidInput({ normalizedDomainName: [`Send the normalized name: ${parsed.name}`] });
  const cents = priceCents(parsed.tld, years);
  if (cents === null) throw invalidInput({ normalizedDomainName: [`.${parsed.tld} names are not sold here`] });
  return cents;
}

/** The restore fee a renewal of a domain expiring at `expiresAt` adds now, in cents: only in redemption. */
function restoreFeeCents(services: Services, expiresAt: Date): number {
  const fee = restoreFeeFor(expiryState(expiresAt, services.now(), expiryPolicy(services.config)).status, services.config.RESTORE_FEE);
  return fee ? Math.round(fee.amount * 100) : 0;
}

/** `getRenewalQuote`: what a renewal of `name` would be, for anyone. */
export async function renewalQuote(services: Services, name: string): Promise<RenewalQuote> {
  const yearly = renewalPriceCents(name, 1);
  const token = await services.ownership.ownerOf(name);
  if (!token) throw notFound(`${name} is not registered: there is nothing to renew`);
  return {
    normalizedDomainName: name,
    ownerAddress: token.owner,
    expiresAt: token.expiresAt.toISOString(),
    renewalPriceInUSDCentsPerYear: yearly,
    latestExpiresAt: latestExpiry(services.now()).toISOString(),
    ...(restoreFeeCents(services, token.expiresAt) > 0 ? { restoreFeeInUSDCents: restoreFeeCents(services, token.expiresAt) } : {}),
  };
}

/**
 * Stores a renewal order (CREATED, one RENEW item) inside the caller's transaction: 404 for a name not registered,
 * the restore fee added in redemption, 400 naming `durationInYears` when the new expiry would lie more than 10 years after now, 402 when the payer's
 * credit does not cover it, 409 while another order of the name is pending. The order worker charges it and moves
 * the expiry (server/orders/processing.ts), exactly as it does a registration.
 */
export async function insertRenewOrder(services: Services, tx: Queryable, request: RenewalRequest): Promise<CreatedOrder> {
  const { name, years } = request;
  const wallet = request.wallet.toLowerCase();
  const token = await services.ownership.ownerOf(name, tx);
  if (!token) throw notFound(`${name} is not registered: there is nothing to renew`);
  // In redemption the renewal also pays the one-off restore fee (contract: A domain's life), which brings the records back.
  const amountCents = renewalPriceCents(name, years) + restoreFeeCents(services, token.expiresAt);
  const now = services.now();
  const newExpiresAt = addYears(token.expiresAt, years);
  const latest = latestExpiry(now);
  if (newExpiresAt > latest) {
    throw invalidInput({
      durationInYears: [
        `${years} year${years === 1 ? '' : 's'} would move the expiry to ${newExpiresAt.toISOString().slice(0, 10)}; a domain may be renewed until at most ${latest.toISOString().slice(0, 10)} (10 years from now)`,
      ],
    });
  }
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`order-wallet:${wallet}`]);
  await requireCredit(services, tx, wallet, amountCents);
  const terms: RenewalTerms = { previousExpiresAt: token.expiresAt.toISOString(), newExpiresAt: newExpiresAt.toISOString() };
  const orderId = randomUUID();
  const [order] = await tx.query<OrderRow>(
    `INSERT INTO orders (id, wallet_address, status, amount_cents, nft_wallet_address, nft_chain_id, metadata, created_at, updated_at)
     VALUES ($1, $2, 'CREATED', $3, $4, $5, $6::jsonb, $7, $7) RETURNING *`,
    [orderId, wallet, amountCents, token.owner.toLowerCase(), token.chainId, JSON.stringify(request.metadata ?? {}), now.toISOString()],
  );
  const items = await tx.query<OrderItemRow>(
    `INSERT INTO order_items (id, order_id, normalized_domain_name, type, duration_in_years, amount_cents, status, initial_records, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, 'RENEW', $4, $5, 'CREATED', NULL, $6::jsonb, $7, $7) RETURNING *`,
    [randomUUID(), orderId, name, years, amountCents, JSON.stringify(terms), now.toISOString()],
  );
  return { ...toOrder(order), items: items.map(toOrderItem) };
}

/** A pending order of the same name (one pending item per domain, enforced by an index) answers a 409. */
export const isPendingConflict = (error: unknown) => (error as { code?: string }).code === '23505';

/** `renewDomain`: a renewal paid by the principal's wallet, for whoever holds the name. */
export async function createRenewOrder(services: Services, principal: Principal, input: RenewDomainInput): Promise<CreatedOrder> {
  let created: CreatedOrder;
  try {
    created = await services.db.transaction((tx) => insertRenewOrder(services, tx, { wallet: principal.wallet, name: input.normalizedDomainName, years: input.durationInYears }));
  } catch (error) {
    if (isPendingConflict(error)) throw conflict(`${input.normalizedDomainName} has an order in progress; renew it once that order has finished`);
    throw error;
  }
  services.notifyOrders();
  return created;
}

/**
 * Moves the expiry of a paid renewal item, in the database and on the chain, inside the order's transaction. Answers
 * a failure (refunded by the caller) when the name is gone or its expiry moved since the order was made.
 */
export async function renewItem(services: Services, tx: Queryable, item: OrderItemRow): Promise<{ ok: true } | { ok: false; failureDetails: string }> {
  const name = item.normalized_domain_name;
  const terms = item.metadata as Partial<RenewalTerms> | null;
  if (!terms?.previousExpiresAt || !terms.newExpiresAt) return { ok: false, failureDetails: `The renewal of ${name} carries no expiry to set` };
  const token = await services.ownership.ownerOf(name, tx);
  if (!token) return { ok: false, failureDetails: `${name} is no longer registered` };
  const current = token.expiresAt.getTime();
  const [previous, next] = [Date.parse(terms.previousExpiresAt), Date.parse(terms.newExpiresAt)];
  if (current !== previous && current !== next) {
    return { ok: false, failureDetails: `The expiry of ${name} changed since this renewal was ordered (${formatUsd(Number(item.amount_cents))} refunded)` };
  }
  // The kill -9 suite dies here once: the renewal is charged (an earlier, committed step), its expiry not yet moved.
  crashPoint('renewal-charged');
  await services.ownership.setExpiry(name, new Date(next), tx);
  return { ok: true };
}
