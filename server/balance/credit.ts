import type { Queryable } from '../db/database.ts';

/** The chain the local service's credit lives on (its own development chain). */
export const CREDIT_CHAIN_ID = 31337;

export async function balanceCents(q: Queryable, wallet: string, options: { lock?: boolean } = {}): Promise<number> {
  const [row] = await q.query<{ balance_cents: number | string }>(
    `SELECT balance_cents FROM balances WHERE wallet_address = $1${options.lock ? ' FOR UPDATE' : ''}`,
    [wallet.toLowerCase()],
  );
  return row ? Number(row.balance_cents) : 0;
}

/** Adds (or, negative, takes) cents; the caller checks that a debit is covered. */
export async function adjustBalance(q: Queryable, wallet: string, deltaCents: number, now: Date): Promise<number> {
  const [row] = await q.query<{ balance_cents: number | string }>(
    `INSERT INTO balances (wallet_address, balance_cents, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (wallet_address) DO UPDATE SET balance_cents = balances.balance_cents + EXCLUDED.balance_cents, updated_at = EXCLUDED.updated_at
     RETURNING balance_cents`,
    [wallet.toLowerCase(), deltaCents, now.toISOString()],
  );
  return Number(row.balance_cents);
}

/** What the wallet's orders not yet charged (CREATED) will take from its balance. */
export async function heldCents(q: Queryable, wallet: string): Promise<number> {
  const [row] = await q.query<{ held: number | string | null }>(
    `SELECT COALESCE(SUM(amount_cents), 0) AS held FROM orders WHERE wallet_address = $1 AND status = 'CREATED'`,
    [wallet.toLowerCase()],
  );
  return Number(row?.held ?? 0);
}
