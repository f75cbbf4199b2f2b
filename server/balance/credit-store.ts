import type { Queryable } from '../db/database.ts';

/**
 * Where the wallets' credit lives, in cents: the database (CHAIN=none) or the Credit ERC-20 on the local chain
 * (CHAIN=anvil, `chain/credit.ts`, which fits this interface as it is). Chosen at start-up, so routes and the order
 * worker never ask which. `q` is the caller's transaction: the database store writes inside it; the chain cannot
 * join it and is idempotent per order instead.
 */
export interface CreditStore {
  balanceCents(wallet: string, q?: Queryable): Promise<number>;
  /** The faucet: creates credit for the wallet; `grantId` is its `faucet_grants` row, the chain's reference for it. */
  grantCents(wallet: string, cents: number, q?: Queryable, grantId?: string): Promise<void>;
  /** Takes the order's price; `insufficient` (nothing taken) when the balance cannot pay. */
  charge(input: { wallet: string; cents: number; orderId: string }, q?: Queryable): Promise<'charged' | 'insufficient'>;
  /** Gives the order back `totalRefundedCents` in all; called once, when the order finishes. */
  refund(input: { orderId: string; wallet: string; totalRefundedCents: number }, q?: Queryable): Promise<void>;
}
