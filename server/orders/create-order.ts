import { randomUUID } from 'node:crypto';
import type { Principal, Services } from '../services.ts';
import type { Queryable } from '../db/database.ts';
import { DomainError, conflict } from '../domain-errors.ts';
import type { CreatedOrder, RegisterDomainInput } from '#core/wire/orders.ts';
import type { ZoneRecordInput } from '#core/wire/dns.ts';
import { checkRecords } from '../dns/zone-validate.ts';
import { checkName } from '../search/availability.ts';
import { CREDIT_CHAIN_ID, heldCents } from '../balance/credit.ts';
import { checkNameAndDuration, formatUsd } from '../search/pricing.ts';
import { toOrder, toOrderItem, type OrderItemRow, type OrderRow } from './repository.ts';

/**
 * Checks each initial record on its own (name and rdata), by the DNS routes' own check, so a bad record fails the
 * request with its field path; whether the set fits together is the zone's business when the domain is registered.
 */
function validateInitialRecords(zoneName: string, records: readonly ZoneRecordInput[]): ZoneRecordInput[] {
  return checkRecords(zoneName, { creates: [...records] }).creates.map(({ name, type, rdata, ttl, comment, tags }) => ({ name, type, rdata, ttl, comment, tags }));
}

/**
 * 402 when the wallet's balance, less what its other pending orders hold, does not cover `amountCents`. Run under
 * the wallet's order lock (`order-wallet:<wallet>`), so two quick orders cannot both count the same credit.
 */
export async function requireCredit(services: Services, tx: Queryable, wallet: string, amountCents: number): Promise<void> {
  const balance = await services.credit.balanceCents(wallet, tx);
  const held = await heldCents(tx, wallet);
  if (balance - held >= amountCents) return;
  const missing = amountCents - (balance - held);
  throw new DomainError(
    'payment-required',
    `This order costs ${formatUsd(amountCents)}; the balance is ${formatUsd(balance)}` +
      (held > 0 ? ` of which pending orders hold ${formatUsd(held)}` : '') +
      `: ${formatUsd(missing)} missing`,
    { requiredInUsdCents: amountCents, balanceInUsdCents: balance, heldInUsdCents: held, missingInUsdCents: missing },
  );
}

/**
 * Creates an order paid by the principal's wallet: 409 when the name is not available any more, 402 when the
 * balance less what the wallet's other pending orders hold does not cover it. The worker does the rest.
 */
export async function createOrder(
  services: Services,
  principal: Principal,
  input: RegisterDomainInput & { records?: ZoneRecordInput[] },
): Promise<CreatedOrder> {
  const { name, amountCents } = checkNameAndDuration(input);
  const records = input.records ? validateInitialRecords(name, input.records) : null;
  const wallet = principal.wallet.toLowerCase();
  const nft = input.nftReceivingWallet ?? { walletAddress: wallet, chainId: CREDIT_CHAIN_ID };
  const now = services.now();
  const orderId = randomUUID();

  let created: CreatedOrder;
  try {
    created = await services.db.transaction(async (tx) => {
      // One order creation per wallet at a time, so two quick orders cannot both count the same credit.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`order-wallet:${wallet}`]);
      const availability = await checkName(tx, name);
      if (!availability.availability) throw conflict(`${name} is not available any more: ${availability.reason ?? 'taken'}`);
      await requireCredit(services, tx, wallet, amountCents);
      const [order] = await tx.query<OrderRow>(
        `INSERT INTO orders (id, wallet_address, status, amount_cents, nft_wallet_address, nft_chain_id, metadata, created_at, updated_at)
         VALUES ($1, $2, 'CREATED', $3, $4, $5, '{}'::jsonb, $6, $6) RETURNING *`,
        [orderId, wallet, amountCents, nft.walletAddress.toLowerCase(), nft.chainId, now.toISOString()],
      );
      const items = await tx.query<OrderItemRow>(
        `INSERT INTO order_items (id, order_id, normalized_domain_name, type, duration_in_years, amount_cents, status, initial_records, metadata, created_at, updated_at)
         VALUES ($1, $2, $3, 'REGISTER', $4, $5, 'CREATED', $6::jsonb, '{}'::jsonb, $7, $7) RETURNING *`,
        [randomUUID(), orderId, name, input.durationInYears, amountCents, records ? JSON.stringify(records) : null, now.toISOString()],
      );
      return { ...toOrder(order), items: items.map(toOrderItem) };
    });
  } catch (error) {
    // Another order for the same name won the race (one pending item per domain, enforced by an index).
    if ((error as { code?: string }).code === '23505') throw conflict(`${name} is not available any more: it has a pending order`);
    throw error;
  }
  services.notifyOrders();
  return created;
}
