import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { conflict } from '../domain-errors.ts';
import { checkName } from '../search/availability.ts';
import { CREDIT_CHAIN_ID } from '../balance/credit.ts';

/**
 * The order of a settled x402 payment, as registerDomain creates one but already paid: it starts PROCESSING with an
 * X402 payment row, so the worker never charges credit for it and only registers (or fails and refunds) it.
 * 409 when the name was taken between the 402 and the payment.
 */
export async function createPaidOrder(
  tx: Queryable,
  input: { name: string; years: number; amountCents: number; payer: string; receiver: string; now: Date },
): Promise<string> {
  const { name, years, amountCents, now } = input;
  const availability = await checkName(tx, name);
  if (!availability.availability) throw conflict(`${name} is not available any more: ${availability.reason ?? 'taken'}`);
  const orderId = randomUUID();
  const at = now.toISOString();
  await tx.query(
    `INSERT INTO orders (id, wallet_address, status, amount_cents, nft_wallet_address, nft_chain_id, metadata, created_at, updated_at, started_at)
     VALUES ($1, $2, 'PROCESSING', $3, $4, $5, '{"paidWith":"x402"}'::jsonb, $6, $6, $6)`,
    [orderId, input.payer.toLowerCase(), amountCents, input.receiver.toLowerCase(), CREDIT_CHAIN_ID, at],
  );
  await tx.query(
    `INSERT INTO order_items (id, order_id, normalized_domain_name, type, duration_in_years, amount_cents, status, initial_records, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, 'REGISTER', $4, $5, 'PROCESSING', NULL, '{}'::jsonb, $6, $6)`,
    [randomUUID(), orderId, name, years, amountCents, at],
  );
  await tx.query(`INSERT INTO payments (id, order_id, amount_cents, status, payment_provider, created_at) VALUES ($1, $2, $3, 'COMPLETED', 'X402', $4)`, [
    randomUUID(),
    orderId,
    amountCents,
    at,
  ]);
  return orderId;
}
