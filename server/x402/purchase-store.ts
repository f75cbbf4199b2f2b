import type { Queryable } from '../db/database.ts';
import type { OrderStatus } from '#core/wire/orders.ts';
import type { X402PurchaseStatus } from '#core/wire/x402.ts';
import { getAddress } from 'viem';

export interface PurchaseRow {
  id: string;
  payer: string;
  authorization_nonce: string;
  normalized_domain_name: string;
  duration_in_years: number;
  nft_receiving_wallet_address: string;
  amount_units: string;
  /** SETTLING: the intent, written before the settlement; FAILED: recovered at start-up, the settlement never landed. */
  status: 'SETTLING' | 'SETTLED' | 'REFUNDED' | 'FAILED';
  order_id: string | null;
  settlement_tx: string | null;
  refund_tx: string | null;
  refund_units: string | null;
  failure_reason: string | null;
  /** The authorization as signed and its signature (NULL on rows older than the intent). */
  payment: SignedAuthorization | null;
}

/** An EIP-3009 `transferWithAuthorization` as the payer signed it: what settles the payment, and settles it again. */
export interface SignedAuthorization {
  authorization: { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string };
  signature: string;
}

export interface PurchaseIntent {
  id: string;
  payer: string;
  name: string;
  years: number;
  receiver: string;
  amountUnits: string;
  network: string;
  asset: string;
  payment: SignedAuthorization;
  now: Date;
}

/**
 * Records the purchase before its payment is settled (status SETTLING): the authorization with its nonce, the payer,
 * the receiver, the name, the duration and the amount. The unique (payer, nonce) reserves the authorization, so two
 * requests with it never both reach the chain; a crash after this is finished at start-up (recover.ts).
 */
export async function recordIntent(q: Queryable, intent: PurchaseIntent): Promise<void> {
  await q.query(
    `INSERT INTO x402_purchases (id, payer, authorization_nonce, normalized_domain_name, duration_in_years, nft_receiving_wallet_address,
       amount_units, network, asset, status, payment, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'SETTLING', $10::jsonb, $11, $11)`,
    [
      intent.id,
      intent.payer.toLowerCase(),
      intent.payment.authorization.nonce.toLowerCase(),
      intent.name,
      intent.years,
      intent.receiver.toLowerCase(),
      intent.amountUnits,
      intent.network,
      intent.asset,
      JSON.stringify(intent.payment),
      intent.now.toISOString(),
    ],
  );
}

export const findPurchase = async (q: Queryable, id: string) =>
  (await q.query<PurchaseRow>('SELECT * FROM x402_purchases WHERE id::text = $1', [id]))[0] ?? null;

export const purchaseOfAuthorization = async (q: Queryable, payer: string, nonce: string) =>
  (await q.query<PurchaseRow>('SELECT * FROM x402_purchases WHERE payer = $1 AND authorization_nonce = $2', [payer.toLowerCase(), nonce.toLowerCase()]))[0] ?? null;

export const purchaseOfOrder = async (q: Queryable, orderId: string) =>
  (await q.query<PurchaseRow>('SELECT * FROM x402_purchases WHERE order_id = $1', [orderId]))[0] ?? null;

export function estimatedSeconds(processingMs: number): number {
  return Math.max(1, Math.ceil(processingMs / 1000));
}

/** The purchase as anyone following it sees it: production's fields, the order's status, and any refund. */
export async function purchaseStatus(q: Queryable, row: PurchaseRow, processingMs: number): Promise<X402PurchaseStatus> {
  const [order] = row.order_id
    ? await q.query<{ status: OrderStatus; failure: string | null }>(`SELECT status, metadata->>'failureDetails' AS failure FROM orders WHERE id = $1`, [row.order_id])
    : [];
  return {
    status: 'accepted',
    message: messageOf(row, order?.status ?? null),
    purchaseId: row.id,
    domain: row.normalized_domain_name,
    buyerWallet: getAddress(row.payer),
    nftReceivingWalletAddress: getAddress(row.nft_receiving_wallet_address),
    estimatedCompletionSeconds: estimatedSeconds(processingMs),
    orderId: row.order_id,
    orderStatus: order?.status ?? null,
    failureReason: order?.failure ?? row.failure_reason,
    settlementTransaction: row.settlement_tx,
    refund: row.refund_tx ? { transaction: row.refund_tx, amount: row.refund_units ?? '0' } : null,
  };
}

function messageOf(row: PurchaseRow, orderStatus: OrderStatus | null): string {
  if (row.refund_tx) return `The payment for ${row.normalized_domain_name} was refunded on chain: ${row.failure_reason ?? 'the order failed'}`;
  if (row.status === 'FAILED') return `The payment for ${row.normalized_domain_name} was never settled; nothing was taken: ${row.failure_reason ?? 'the service stopped'}`;
  if (row.status === 'SETTLING') return `The payment for ${row.normalized_domain_name} is being settled`;
  if (orderStatus === 'SUCCEEDED') return `${row.normalized_domain_name} is registered`;
  return `Payment settled; ${row.normalized_domain_name} is being registered`;
}
