import { randomUUID } from 'node:crypto';
import { getAddress, keccak256, stringToBytes, type Hex } from 'viem';
import type { ChainClients } from './client.ts';
import { creditAbi } from './contracts.ts';
import type { Deployment } from './deploy.ts';
import { revertName } from './errors.ts';

/** 1 credit = 1 USD = 10^18 units, so a cent is 10^16 units. */
export const UNITS_PER_CENT = 10n ** 16n;

export const centsToUnits = (cents: number): bigint => {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`cents must be a whole non-negative number, got ${cents}`);
  return BigInt(cents) * UNITS_PER_CENT;
};
/** Whole cents, rounded down: a balance never shows more than can be spent. */
export const unitsToCents = (units: bigint): number => Number(units / UNITS_PER_CENT);

/** The on-chain reference of an order: keccak256 of its id. */
export const orderRef = (orderId: string): Hex => keccak256(stringToBytes(orderId));
/** The on-chain reference of a faucet grant (a `faucet_grants` row): its own namespace, so it never meets an order's. */
export const grantRef = (grantId: string): Hex => keccak256(stringToBytes(`faucet-grant:${grantId}`));

/**
 * The payment credit, in cents, as the orders and balance code need it. Every write is idempotent per order, so
 * a step retried after a crash neither charges nor refunds twice.
 */
export interface CreditLedger {
  balanceCents(wallet: string): Promise<number>;
  /**
   * The faucet: creates credit for the wallet, once per `grantId` (its journal row; a new one when omitted).
   * `_q` is the caller's database transaction, which the chain cannot join (the same shape as the CreditStore).
   */
  grantCents(wallet: string, cents: number, _q?: unknown, grantId?: string): Promise<void>;
  /** Takes the order's price; `insufficient` (nothing taken) when the balance cannot pay. */
  charge(input: { wallet: string; cents: number; orderId: string }): Promise<'charged' | 'insufficient'>;
  /** Brings the order's refunds up to `totalRefundedCents` (at most what it was charged). */
  refund(input: { orderId: string; totalRefundedCents: number }): Promise<void>;
}

/** The credit ERC-20 on the chain; the service's account is its owner (faucet and charges). */
export function chainCredit(clients: ChainClients, deployment: Pick<Deployment, 'credit'>): CreditLedger {
  const address = deployment.credit;
  return {
    async balanceCents(wallet) {
      const units = await clients.public.readContract({ address, abi: creditAbi, functionName: 'balanceOf', args: [getAddress(wallet)] });
      return unitsToCents(units);
    },
    async grantCents(wallet, cents, _q, grantId = randomUUID()) {
      await clients.write((w) =>
        w.writeContract({ address, abi: creditAbi, functionName: 'grant', args: [getAddress(wallet), centsToUnits(cents), grantRef(grantId)] }),
      );
    },
    async charge({ wallet, cents, orderId }) {
      try {
        await clients.write((w) =>
          w.writeContract({ address, abi: creditAbi, functionName: 'charge', args: [getAddress(wallet), centsToUnits(cents), orderRef(orderId)] }),
        );
        return 'charged';
      } catch (error) {
        if (revertName(error) === 'InsufficientBalance') return 'insufficient';
        throw error;
      }
    },
    async refund({ orderId, totalRefundedCents }) {
      await clients.write((w) =>
        w.writeContract({ address, abi: creditAbi, functionName: 'refund', args: [orderRef(orderId), centsToUnits(totalRefundedCents)] }),
      );
    },
  };
}
