import { getAddress, keccak256, stringToBytes, zeroAddress, type Address, type Hash, type Hex } from 'viem';
import type { Queryable } from '../db/database.ts';
import type { ChainClients } from './client.ts';
import { usdTokenAbi } from './contracts.ts';
import { grantRef } from './credit.ts';

/** The token has 6 decimals, like USDC: a cent is 10^4 base units. */
export const USD_DECIMALS = 6;
export const USD_UNITS_PER_CENT = 10_000n;
/** What the faucet grants next to credit: 100 USDC. */
export const USD_FAUCET_UNITS = 100n * 10n ** 6n;
/** The EIP-712 domain of the token's authorizations (its `name()` and `version()`). */
export const USD_EIP712 = { name: 'Namefi Test USD', version: '1' } as const;

/** The on-chain reference of an x402 refund: its own namespace, apart from grants and orders. */
const refundRef = (purchaseId: string): Hex => keccak256(stringToBytes(`x402-refund:${purchaseId}`));

export interface UsdLedger {
  address: Address;
  balanceUnits(wallet: string): Promise<bigint>;
  /** The token's EIP-3009 nonce state: whether this authorization was used on the chain. */
  authorizationUsed(wallet: string, nonce: Hex): Promise<boolean>;
  /** Mints the faucet's USD once per grant (its `faucet_grants` row id). */
  grant(wallet: string, units: bigint, grantId: string): Promise<void>;
  /** Pays a purchase's refund from the service's own balance, once per purchase; returns the transaction. */
  refund(purchaseId: string, to: string, units: bigint): Promise<Hash>;
  /** The refund the chain holds for a purchase (its `payOnce` ref), with the transaction that paid it; null when none. */
  refundOf(purchaseId: string): Promise<{ to: Address; units: bigint; transaction: Hash | null } | null>;
  /** The transaction that used this authorization on the chain (its `AuthorizationUsed` event); null when none. */
  settlementOf(wallet: string, nonce: Hex): Promise<Hash | null>;
}

export function usdLedger(clients: ChainClients, address: Address): UsdLedger {
  return {
    address,
    balanceUnits: (wallet) => clients.public.readContract({ address, abi: usdTokenAbi, functionName: 'balanceOf', args: [getAddress(wallet)] }),
    authorizationUsed: (wallet, nonce) =>
      clients.public.readContract({ address, abi: usdTokenAbi, functionName: 'authorizationState', args: [getAddress(wallet), nonce] }),
    async grant(wallet, units, grantId) {
      await clients.write((w) => w.writeContract({ address, abi: usdTokenAbi, functionName: 'grant', args: [getAddress(wallet), units, grantRef(grantId)] }));
    },
    async refund(purchaseId, to, units) {
      const receipt = await clients.write((w) =>
        w.writeContract({ address, abi: usdTokenAbi, functionName: 'payOnce', args: [refundRef(purchaseId), getAddress(to), units] }),
      );
      return receipt.transactionHash;
    },
    async refundOf(purchaseId) {
      const ref = refundRef(purchaseId);
      const [to, units] = await clients.public.readContract({ address, abi: usdTokenAbi, functionName: 'payments', args: [ref] });
      if (to === zeroAddress) return null;
      const [log] = await clients.public.getContractEvents({ address, abi: usdTokenAbi, eventName: 'PaidOnce', args: { ref }, fromBlock: 0n, strict: true });
      return { to: getAddress(to), units, transaction: log?.transactionHash ?? null };
    },
    async settlementOf(wallet, nonce) {
      const [log] = await clients.public.getContractEvents({
        address,
        abi: usdTokenAbi,
        eventName: 'AuthorizationUsed',
        args: { authorizer: getAddress(wallet), nonce },
        fromBlock: 0n,
        strict: true,
      });
      return log?.transactionHash ?? null;
    },
  };
}

/**
 * Sets the token's faucet grants to the journal (`faucet_grants`, one USD grant per row, the same ref as the
 * credit's): a grant the chain lost is minted again, and with `undoAhead` (the anvil this service owns) one the
 * database never committed is taken back. x402 settlements have their own journal (`x402_purchases`, replayed by
 * usd-settlements.ts).
 */
export async function reconcileUsdGrants(
  clients: ChainClients,
  address: Address,
  q: Queryable,
  options: { undoAhead: boolean },
): Promise<{ restored: number; undone: number }> {
  const rows = await q.query<{ id: string; wallet_address: string }>('SELECT id, wallet_address FROM faucet_grants');
  const journal = new Map(rows.map((r) => [grantRef(r.id), r.id] as const));
  const onChain = await clients.public.readContract({ address, abi: usdTokenAbi, functionName: 'grantRefs' });
  const known = new Set(onChain);
  let restored = 0;
  let undone = 0;
  const ledger = usdLedger(clients, address);
  for (const row of rows) {
    if (known.has(grantRef(row.id))) continue;
    await ledger.grant(row.wallet_address, USD_FAUCET_UNITS, row.id);
    restored += 1;
  }
  if (options.undoAhead) {
    for (const ref of onChain) {
      if (journal.has(ref)) continue;
      const [, amount] = await clients.public.readContract({ address, abi: usdTokenAbi, functionName: 'grants', args: [ref] });
      if (amount === 0n) continue;
      await clients.write((w) => w.writeContract({ address, abi: usdTokenAbi, functionName: 'revokeGrant', args: [ref] }));
      undone += 1;
    }
  }
  return { restored, undone };
}
