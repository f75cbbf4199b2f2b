import type { Queryable } from '../db/database.ts';
import type { Services } from '../services.ts';
import { USD_UNITS_PER_CENT } from '../chain/usd-token.ts';
import { purchaseOfOrder } from './purchase-store.ts';
import { railOf } from './purchase.ts';

/**
 * Pays back the failed part of an x402-paid order in the token, from the treasury to the payer. The token pays once
 * per purchase ref, so the order worker retrying after a crash (the chain write mined, the transaction not
 * committed) does not refund twice.
 */
export async function refundX402Order(services: Services, tx: Queryable, orderId: string, cents: number, reason: string): Promise<void> {
  const purchase = await purchaseOfOrder(tx, orderId);
  if (!purchase) throw new Error(`order ${orderId} was paid with x402 but has no purchase`);
  const units = BigInt(cents) * USD_UNITS_PER_CENT;
  const hash = await railOf(services).usd.refund(purchase.id, purchase.payer, units);
  await tx.query(`UPDATE x402_purchases SET status = 'REFUNDED', refund_tx = $2, refund_units = $3, failure_reason = $4, updated_at = $5 WHERE id = $1`, [
    purchase.id,
    hash,
    units.toString(),
    reason,
    services.now().toISOString(),
  ]);
}
