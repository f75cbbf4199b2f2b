import type { Queryable } from '../db/database.ts';
import { restoreMissingMints } from './chain-ownership.ts';
import type { LocalChain } from './local-chain.ts';
import { reconcileCredit, type ReconcileReport } from './reconcile.ts';
import { reconcileUsdGrants } from './usd-token.ts';
import { reconcileUsdSettlements, type SettlementReplay } from './usd-settlements.ts';
import { reconcileAccounts, type AccountReplay } from './account-journal.ts';

export interface ChainReconcileReport {
  /** Names minted again because the chain had lost them. */
  restored: string[];
  credit: ReconcileReport;
  /** x402 settlements and refunds the chain had lost, made again. */
  settlements: SettlementReplay;
  /** Smart accounts and EIP-7702 delegations the chain had lost, made again. */
  accounts: AccountReplay;
}

/**
 * Brings the chain back to what the database recorded (the journal) after a crash: lost mints are minted again,
 * every faucet grant, charge and refund is set to its journal entry, and the x402 settlements and refunds, smart-account
 * deployments and EIP-7702 delegations the journal holds are made again where the chain lacks them. Call it before
 * the service serves or processes orders.
 */
export async function reconcileChain(chain: LocalChain, db: Queryable): Promise<ChainReconcileReport> {
  const restored = await restoreMissingMints(chain.clients, chain.deployment, db);
  // Undo writes the database never committed only on the anvil this service started: nobody else writes there, and
  // nothing is in flight before the service serves. A node given by CHAIN_RPC_URL may be shared with an instance
  // that is between its chain write and its commit.
  const credit = await reconcileCredit(chain.clients, chain.deployment, db, { undoAhead: chain.ownsNode });
  // The faucet's USD grants share the credit's journal rows (faucet_grants): one USD grant per row.
  const usd = chain.deployment.usdToken
    ? await reconcileUsdGrants(chain.clients, chain.deployment.usdToken, db, { undoAhead: chain.ownsNode })
    : { restored: 0, undone: 0 };
  credit.restored += usd.restored;
  credit.undone += usd.undone;
  // Accounts first: a delegation may name code a journaled deployment made.
  const accounts = await reconcileAccounts(chain.clients, db, { ownsNode: chain.ownsNode });
  const settlements = chain.deployment.usdToken
    ? await reconcileUsdSettlements(chain.clients, chain.deployment.usdToken, db)
    : { resettled: 0, refunded: 0 };
  const replayed = accounts.deployed + accounts.delegated + settlements.resettled + settlements.refunded;
  if (restored.length > 0 || credit.restored > 0 || credit.undone > 0 || replayed > 0) await chain.saveState();
  return { restored, credit, settlements, accounts };
}
