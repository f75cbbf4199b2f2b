import type { Hex } from 'viem';
import type { Database } from '../db/database.ts';
import { completeSettledPurchase } from './complete-purchase.ts';
import type { PurchaseRow } from './purchase-store.ts';
import type { X402Rail } from './rail.ts';

export interface PurchaseRecovery {
  /** Settled on the chain, no order yet: now ordered. */
  ordered: number;
  /** Settled, and refunded on chain (before the crash, or now because the order could not be created). */
  refunded: number;
  /** The settlement never landed: failed, nothing taken. */
  failed: number;
  /** Still valid and unsettled on a node other instances share: one of them may be settling it. */
  left: number;
}

export const NEVER_SETTLED = 'the service stopped before the payment was settled; sign a new authorization to buy the name';

/**
 * Finishes every purchase found between states (SETTLING: its intent written, its order not) after a crash, from what
 * the chain says of its authorization: a refund paid for it → REFUNDED; the authorization used on the token (the
 * payment settled) → its order, once (completeSettledPurchase); not used → FAILED with nothing taken. Run at
 * start-up, after the chain is reconciled and before the service serves. On a node it does not own (CHAIN_RPC_URL)
 * an authorization still inside its validity window is left: another instance may be settling it right now; once
 * its `validBefore` has passed it can never land.
 */
export async function recoverPurchases(input: { db: Database; rail: X402Rail; now: () => Date; ownsNode: boolean }): Promise<PurchaseRecovery> {
  const { db, rail, now } = input;
  const report: PurchaseRecovery = { ordered: 0, refunded: 0, failed: 0, left: 0 };
  const rows = await db.query<PurchaseRow>(`SELECT * FROM x402_purchases WHERE status = 'SETTLING' ORDER BY created_at`);
  for (const row of rows) {
    const nonce = row.authorization_nonce as Hex;
    const refund = await rail.usd.refundOf(row.id);
    if (refund) {
      await db.query(
        `UPDATE x402_purchases SET status = 'REFUNDED', refund_tx = $2, refund_units = $3, failure_reason = COALESCE(failure_reason, $4), updated_at = $5
          WHERE id = $1 AND status = 'SETTLING'`,
        [row.id, refund.transaction ?? '', refund.units.toString(), 'the order could not be created', now().toISOString()],
      );
      report.refunded += 1;
      continue;
    }
    if (await rail.usd.authorizationUsed(row.payer, nonce)) {
      const settlementTx = await rail.usd.settlementOf(row.payer, nonce);
      const done = await completeSettledPurchase(db, rail, { purchaseId: row.id, settlementTx, now });
      report['orderId' in done ? 'ordered' : 'refunded'] += 1;
      continue;
    }
    const validBefore = row.payment ? BigInt(row.payment.authorization.validBefore) : 0n;
    if (!input.ownsNode && BigInt(Math.floor(now().getTime() / 1000)) < validBefore) {
      report.left += 1;
      continue;
    }
    await db.query(`UPDATE x402_purchases SET status = 'FAILED', failure_reason = $2, updated_at = $3 WHERE id = $1 AND status = 'SETTLING'`, [
      row.id,
      NEVER_SETTLED,
      now().toISOString(),
    ]);
    report.failed += 1;
  }
  return report;
}
