import type { Queryable } from '../db/database.ts';
import { restoreMissingMints } from '../ownership/chain-ownership.ts';
import type { LocalChain } from './local-chain.ts';
import { reconcileCredit, type ReconcileReport } from './reconcile.ts';
import { reconcileUsdGrants } from './usd-token.ts';

export interface ChainReconcileReport {
  /** Names minted again because the chain had lost them. */
  restored: string[];
  credit: ReconcileReport;
}

/**
 * Brings the chain back to what the database recorded (the journal) after a crash: lost mints are minted again,
 * and every faucet grant, charge and refund is set to its journal entry. Call it before the service serves or
 * processes orders.
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
  if (restored.length > 0 || credit.restored > 0 || credit.undone > 0) await chain.saveState();
  return { restored, credit };
}
