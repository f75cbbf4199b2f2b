import type { Database } from '../db/database.ts';
import { adjustBalance, balanceCents } from './credit.ts';
import type { CreditStore } from './credit-store.ts';

/**
 * Credit as a row per wallet in `balances`. Each write runs in the caller's transaction, which also moves the
 * order's status, so a charge or refund happens once.
 */
export function databaseCredit(db: Database, now: () => Date): CreditStore {
  return {
    balanceCents: (wallet, q = db) => balanceCents(q, wallet),
    async grantCents(wallet, cents, q = db) {
      await adjustBalance(q, wallet, cents, now());
    },
    async charge({ wallet, cents }, q = db) {
      if ((await balanceCents(q, wallet, { lock: true })) < cents) return 'insufficient';
      await adjustBalance(q, wallet, -cents, now());
      return 'charged';
    },
    async refund({ wallet, totalRefundedCents }, q = db) {
      await adjustBalance(q, wallet, totalRefundedCents, now());
    },
  };
}
