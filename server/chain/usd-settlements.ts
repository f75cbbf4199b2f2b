import { getAddress, type Address, type Hex } from 'viem';
import type { Queryable } from '../db/database.ts';
import type { ChainClients } from './client.ts';
import { usdTokenAbi } from './contracts.ts';
import { usdLedger } from './usd-token.ts';

/** What the x402 journal (`x402_purchases.payment`) holds of a settlement: the authorization as signed. */
interface JournaledPayment {
  id: string;
  payer: string;
  refund_units: string | null;
  payment: {
    authorization: { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string };
    signature: string;
  };
}

export interface SettlementReplay {
  /** Settlements the chain had lost, settled again with the payer's own signed authorization. */
  resettled: number;
  /** Refunds the chain had lost, paid again (once per purchase). */
  refunded: number;
}

/**
 * Sets the token to the x402 journal: every purchase the database recorded as settled (SETTLED or REFUNDED) has its
 * authorization used on the chain, and every refund it recorded is paid. A chain whose state was saved before the
 * settlement (a kill -9 within CHAIN_STATE_INTERVAL_S) lost it; it is sent again with the payer's own signed
 * authorization, as the facilitator first sent it, or once its `validBefore` has passed with the token's owner-only
 * `replayAuthorization` of the same signature. Both mark the nonce used, so this is idempotent: a chain that matches
 * gets no transaction. Purchases between states (SETTLING)
 * are not the journal's: the chain decides those (x402/recover.ts).
 */
export async function reconcileUsdSettlements(clients: ChainClients, token: Address, q: Queryable): Promise<SettlementReplay> {
  const rows = await q.query<JournaledPayment>(
    `SELECT id, payer, refund_units, payment FROM x402_purchases WHERE status IN ('SETTLED', 'REFUNDED') AND payment IS NOT NULL ORDER BY created_at`,
  );
  const ledger = usdLedger(clients, token);
  const report: SettlementReplay = { resettled: 0, refunded: 0 };
  for (const row of rows) {
    const { authorization: a, signature } = row.payment;
    if (!(await ledger.authorizationUsed(a.from, a.nonce as Hex))) {
      const now = (await clients.public.getBlock()).timestamp;
      // Inside its window (a margin for the block that carries it) the facilitator's own call; past it, the owner's
      // replay of the same signed authorization, which only the window no longer limits.
      const functionName = now + 5n < BigInt(a.validBefore) ? 'transferWithAuthorization' : 'replayAuthorization';
      await clients.write((w) =>
        w.writeContract({
          address: token,
          abi: usdTokenAbi,
          functionName,
          args: [getAddress(a.from), getAddress(a.to), BigInt(a.value), BigInt(a.validAfter), BigInt(a.validBefore), a.nonce as Hex, signature as Hex],
        }),
      );
      report.resettled += 1;
    }
    if (row.refund_units && !(await ledger.refundOf(row.id))) {
      await ledger.refund(row.id, row.payer, BigInt(row.refund_units));
      report.refunded += 1;
    }
  }
  return report;
}
