import type { Queryable } from '../db/database.ts';
import type { Order, OrderItem, OrderStatus, Payment } from '#core/wire/orders.ts';
import type { ZoneRecordInput } from '#core/wire/dns.ts';

type Timestamp = Date | string;
const iso = (t: Timestamp) => new Date(t).toISOString();
const isoOrNull = (t: Timestamp | null) => (t === null ? null : iso(t));

export interface OrderRow {
  id: string;
  wallet_address: string;
  status: OrderStatus;
  amount_cents: number | string;
  nft_wallet_address: string;
  nft_chain_id: number;
  metadata: Record<string, unknown> | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export interface OrderItemRow {
  id: string;
  order_id: string;
  normalized_domain_name: string;
  type: 'REGISTER' | 'RENEW';
  duration_in_years: number;
  amount_cents: number | string;
  status: OrderStatus;
  initial_records: ZoneRecordInput[] | null;
  metadata: Record<string, unknown> | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface PaymentRow {
  id: string;
  order_id: string;
  amount_cents: number | string;
  status: string;
  payment_provider: 'CREDIT';
  created_at: Timestamp;
}

export const toOrder = (r: OrderRow): Order => ({
  id: r.id,
  status: r.status,
  amountInUSDCents: Number(r.amount_cents),
  nftWalletAddress: r.nft_wallet_address,
  nftChainId: r.nft_chain_id,
  metadata: r.metadata ?? {},
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  startedAt: isoOrNull(r.started_at),
  finishedAt: isoOrNull(r.finished_at),
});

export const toOrderItem = (r: OrderItemRow): OrderItem => ({
  id: r.id,
  orderId: r.order_id,
  normalizedDomainName: r.normalized_domain_name,
  type: r.type,
  durationInYears: r.duration_in_years,
  amountInUSDCents: Number(r.amount_cents),
  status: r.status,
  metadata: r.metadata ?? {},
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const toPayment = (r: PaymentRow): Payment => ({
  id: r.id,
  amountInUSDCents: Number(r.amount_cents),
  status: r.status,
  paymentProvider: 'CREDIT',
  createdAt: iso(r.created_at),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `lock` holds the order's row until the transaction ends; 'skip-locked' answers null instead of waiting when
 * another transaction (another worker, in this process or another) holds it: that worker is doing the step.
 */
export async function findOrder(q: Queryable, id: string, options: { lock?: boolean | 'skip-locked' } = {}): Promise<OrderRow | null> {
  if (!UUID.test(id)) return null;
  const lock = options.lock === 'skip-locked' ? ' FOR UPDATE SKIP LOCKED' : options.lock ? ' FOR UPDATE' : '';
  const [row] = await q.query<OrderRow>(`SELECT * FROM orders WHERE id = $1${lock}`, [id]);
  return row ?? null;
}

export function itemsOf(q: Queryable, orderId: string): Promise<OrderItemRow[]> {
  return q.query<OrderItemRow>('SELECT * FROM order_items WHERE order_id = $1 ORDER BY created_at, id', [orderId]);
}

export async function paymentsOf(q: Queryable, orderId: string): Promise<Payment[]> {
  const rows = await q.query<PaymentRow>('SELECT * FROM payments WHERE order_id = $1 ORDER BY created_at, id', [orderId]);
  return rows.map(toPayment);
}

/** Every item of the wallet's orders, newest first. */
export async function itemsOfWallet(q: Queryable, wallet: string): Promise<OrderItem[]> {
  const rows = await q.query<OrderItemRow>(
    `SELECT i.* FROM order_items i JOIN orders o ON o.id = i.order_id
     WHERE o.wallet_address = $1 ORDER BY i.created_at DESC, i.id DESC`,
    [wallet.toLowerCase()],
  );
  return rows.map(toOrderItem);
}

export async function setOrderStatus(
  q: Queryable,
  id: string,
  status: OrderStatus,
  now: Date,
  extra: { startedAt?: Date; finishedAt?: Date; metadata?: Record<string, unknown> } = {},
): Promise<void> {
  await q.query(
    `UPDATE orders SET status = $2, updated_at = $3,
       started_at = COALESCE($4, started_at), finished_at = COALESCE($5, finished_at),
       metadata = COALESCE(metadata, '{}'::jsonb) || $6::jsonb
     WHERE id = $1`,
    [id, status, now.toISOString(), extra.startedAt?.toISOString() ?? null, extra.finishedAt?.toISOString() ?? null, JSON.stringify(extra.metadata ?? {})],
  );
}

export async function setItemStatus(q: Queryable, id: string, status: OrderStatus, now: Date, metadata: Record<string, unknown> = {}): Promise<void> {
  await q.query(
    `UPDATE order_items SET status = $2, updated_at = $3, metadata = COALESCE(metadata, '{}'::jsonb) || $4::jsonb WHERE id = $1`,
    [id, status, now.toISOString(), JSON.stringify(metadata)],
  );
}
