import type { Hash } from 'viem';
import type { Database } from '../db/database.ts';
import { DomainError } from '../domain-errors.ts';
import { USD_UNITS_PER_CENT } from '../chain/usd-token.ts';
import { createPaidOrder } from './paid-order.ts';
import { findPurchase, type PurchaseRow } from './purchase-store.ts';
import type { X402Rail } from './rail.ts';

/** What became of a settled purchase: its order, or its payment refunded on chain. */
export type Completion = { orderId: string } | { refunded: { reason: string; transaction: Hash | string } };

const centsOfUnits = (units: string): number => Number(BigInt(units) / USD_UNITS_PER_CENT);

/**
 * Gives a purchase whose payment settled its order, once: the order is created under the purchase row's lock and
 * only while the row is SETTLING, so the request that settled it, a start-up recovery and another instance never
 * create two. The purchase is keyed by its authorization (unique payer and nonce), so this is once per nonce.
 * An order that cannot be created (the name was taken meanwhile) is refunded on chain, once per purchase.
 */
export async function completeSettledPurchase(
  db: Database,
  rail: X402Rail,
  input: { purchaseId: string; settlementTx: string | null; now: () => Date },
): Promise<Completion> {
  const { purchaseId, settlementTx, now } = input;
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.query<PurchaseRow>('SELECT * FROM x402_purchases WHERE id = $1 FOR UPDATE', [purchaseId]);
      if (!row) throw new Error(`no x402 purchase ${purchaseId}`);
      const finished = completionOf(row);
      if (finished) return finished;
      if (row.status !== 'SETTLING') throw new Error(`x402 purchase ${purchaseId} is ${row.status}, not settled`);
      const orderId = await createPaidOrder(tx, {
        name: row.normalized_domain_name,
        years: row.duration_in_years,
        amountCents: centsOfUnits(row.amount_units),
        payer: row.payer,
        receiver: row.nft_receiving_wallet_address,
        now: now(),
      });
      await tx.query(
        `UPDATE x402_purchases SET status = 'SETTLED', settlement_tx = COALESCE($2, settlement_tx), order_id = $3, updated_at = $4 WHERE id = $1`,
        [purchaseId, settlementTx, orderId, now().toISOString()],
      );
      return { orderId };
    });
  } catch (error) {
    const purchase = await findPurchase(db, purchaseId);
    const finished = purchase && completionOf(purchase);
    if (finished) return finished;
    if (purchase?.status !== 'SETTLING') throw error;
    const reason = error instanceof DomainError ? error.message : 'the order could not be created';
    const transaction = await rail.usd.refund(purchaseId, purchase.payer, BigInt(purchase.amount_units));
    await db.query(
      `UPDATE x402_purchases SET status = 'REFUNDED', settlement_tx = COALESCE($2, settlement_tx), refund_tx = $3, refund_units = $4, failure_reason = $5, updated_at = $6
        WHERE id = $1 AND status = 'SETTLING'`,
      [purchaseId, settlementTx, transaction, purchase.amount_units, reason, now().toISOString()],
    );
    return { refunded: { reason, transaction } };
  }
}

/** A purchase finished already (by the request, a recovery or another instance): what became of it. */
function completionOf(row: PurchaseRow): Completion | null {
  if (row.status === 'SETTLED' && row.order_id) return { orderId: row.order_id };
  if (row.status === 'REFUNDED') return { refunded: { reason: row.failure_reason ?? 'the order failed', transaction: row.refund_tx ?? '' } };
  return null;
}
