import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import type { Services } from '../services.ts';
import type { OrderStatus } from '#core/wire/orders.ts';
import { startsParked } from '#core/dns/parking.ts';
import { orderAuthor } from '../history/record-change.ts';
import { applyInitialRecords } from './initial-records.ts';
import { parkingCommand } from '../zones/parking.ts';
import { changeZoneWithin } from '../zones/pipeline.ts';
import { refundX402Order } from '../x402/refund.ts';
import { formatUsd } from '../search/pricing.ts';
import { renewItem } from './renew-order.ts';
import { findOrder, itemsOf, setItemStatus, setOrderStatus, type OrderItemRow } from './repository.ts';

/**
 * Each step runs in one transaction that first locks the order and checks its status, so a step that ran
 * already (before a crash, or in another worker) is a no-op: an order is charged, refunded and minted once.
 */

/** CREATED → PROCESSING with the charge, or FAILED (items CANCELLED) when the balance cannot pay. */
export async function startOrder(services: Services, orderId: string): Promise<void> {
  await services.db.transaction(async (tx) => {
    const order = await findOrder(tx, orderId, { lock: 'skip-locked' });
    if (!order || order.status !== 'CREATED') return;
    const now = services.now();
    const amount = Number(order.amount_cents);
    const items = await itemsOf(tx, orderId);
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`order-wallet:${order.wallet_address}`]);
    const charged = await services.credit.charge({ wallet: order.wallet_address, cents: amount, orderId }, tx);
    if (charged === 'insufficient') {
      const balance = await services.credit.balanceCents(order.wallet_address, tx);
      const failureDetails = `The balance (${formatUsd(balance)}) could not pay ${formatUsd(amount)}`;
      for (const item of items) await setItemStatus(tx, item.id, 'CANCELLED', now, { failureDetails });
      await setOrderStatus(tx, orderId, 'FAILED', now, { startedAt: now, finishedAt: now, metadata: { failureDetails } });
      return;
    }
    await tx.query(
      `INSERT INTO payments (id, order_id, amount_cents, status, payment_provider, created_at) VALUES ($1, $2, $3, 'COMPLETED', 'CREDIT', $4)`,
      [randomUUID(), orderId, amount, now.toISOString()],
    );
    for (const item of items) await setItemStatus(tx, item.id, 'PROCESSING', now);
    await setOrderStatus(tx, orderId, 'PROCESSING', now, { startedAt: now });
  });
}

type ItemOutcome = { status: 'SUCCEEDED' } | { status: 'FAILED' | 'PARTIALLY_COMPLETED'; failureDetails: string; recordErrors?: unknown };

/** PROCESSING → a terminal status: each item registers (or fails), failed items are refunded. */
export async function finishOrder(services: Services, orderId: string): Promise<void> {
  await services.db.transaction(async (tx) => {
    const order = await findOrder(tx, orderId, { lock: 'skip-locked' });
    if (!order || order.status !== 'PROCESSING') return;
    const now = services.now();
    const items = await itemsOf(tx, orderId);
    const outcomes: ItemOutcome[] = [];
    let refund = 0;
    for (const item of items) {
      const outcome = item.status === 'PROCESSING' ? await registerItem(services, tx, item, order.nft_wallet_address, order.nft_chain_id, now, order.wallet_address) : null;
      if (!outcome) continue;
      outcomes.push(outcome);
      if (outcome.status === 'FAILED') refund += Number(item.amount_cents);
      const { status, ...metadata } = outcome;
      await setItemStatus(tx, item.id, status, now, metadata);
    }
    const status = overallStatus(outcomes);
    const problems = outcomes.flatMap((o) => (o.status === 'SUCCEEDED' ? [] : [o.failureDetails]));
    if (refund > 0) await refundOrder(services, tx, orderId, order.wallet_address, refund, now, problems.join('; '));
    await setOrderStatus(tx, orderId, status, now, { finishedAt: now, metadata: problems.length ? { failureDetails: problems.join('; ') } : {} });
  });
}

function overallStatus(outcomes: ItemOutcome[]): OrderStatus {
  if (outcomes.every((o) => o.status === 'SUCCEEDED')) return 'SUCCEEDED';
  if (outcomes.every((o) => o.status === 'FAILED')) return 'FAILED';
  return 'PARTIALLY_COMPLETED';
}

async function registerItem(services: Services, tx: Queryable, item: OrderItemRow, nftWallet: string, chainId: number, now: Date, orderedBy: string): Promise<ItemOutcome> {
  const name = item.normalized_domain_name;
  if (item.type === 'RENEW') {
    const renewed = await renewItem(services, tx, item);
    return renewed.ok ? { status: 'SUCCEEDED' } : { status: 'FAILED', failureDetails: renewed.failureDetails };
  }
  if (name.split('.')[0].startsWith('fail-')) {
    return { status: 'FAILED', failureDetails: `The registry refused ${name}: names starting with fail- always fail on this service (for testing failure paths)` };
  }
  // Held already by the receiving wallet: on a chain, the mint of an earlier try whose transaction did not commit.
  const holder = await services.ownership.ownerOf(name, tx);
  if (holder && holder.owner !== nftWallet.toLowerCase()) return { status: 'FAILED', failureDetails: `${name} was registered by someone else first` };
  await services.ownership.mint({ name, to: nftWallet, chainId, years: item.duration_in_years, now }, tx);
  const records = item.initial_records ?? [];
  // Unparked first when the registration brings an apex address record, so the zone accepts that record.
  const parked = startsParked(records);
  const author = orderAuthor(records.length === 0 ? 'registerDomain' : 'registerWithRecords', orderedBy);
  const setParked = (parked: boolean) => changeZoneWithin(services, tx, { zoneName: name, by: { author }, command: parkingCommand({ parked, overrideExistingRecords: false }), now });
  await setParked(parked);
  const applied = records.length === 0 ? null : await applyInitialRecords(services, tx, name, records, now, author);
  if (applied && !applied.ok && !parked) await setParked(true);
  if (applied && !applied.ok) {
    return {
      status: 'PARTIALLY_COMPLETED',
      failureDetails: `${name} is registered, but its initial records could not be applied: ${applied.message}`,
      recordErrors: applied.data,
    };
  }
  return { status: 'SUCCEEDED' };
}

/** An order finishes once, so this is its whole refund. */
async function refundOrder(services: Services, tx: Queryable, orderId: string, wallet: string, amount: number, now: Date, reason: string): Promise<void> {
  const [payment] = await tx.query<{ id: string; amount_cents: number | string; payment_provider: string }>(
    `SELECT id, amount_cents, payment_provider FROM payments WHERE order_id = $1 AND status = 'COMPLETED' ORDER BY created_at LIMIT 1`,
    [orderId],
  );
  if (!payment) return;
  // An x402 order was paid in the USD token: it is refunded there, not in credit.
  if (payment.payment_provider === 'X402') await refundX402Order(services, tx, orderId, amount, reason);
  else await services.credit.refund({ orderId, wallet, totalRefundedCents: amount }, tx);
  if (Number(payment.amount_cents) === amount) {
    await tx.query(`UPDATE payments SET status = 'REFUNDED' WHERE id = $1`, [payment.id]);
  } else {
    await tx.query(
      `INSERT INTO payments (id, order_id, amount_cents, status, payment_provider, created_at) VALUES ($1, $2, $3, 'REFUNDED', 'CREDIT', $4)`,
      [randomUUID(), orderId, -amount, now.toISOString()],
    );
  }
}
