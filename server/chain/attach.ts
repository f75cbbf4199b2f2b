import { setContractSignatureVerifier } from '../auth/contract-signatures.ts';
import type { Services } from '../http/context.ts';
import { restoreMissingMints } from '../ownership/chain-ownership.ts';
import type { LocalChain } from './local-chain.ts';
import { reconcileCredit, type ReconcileReport } from './reconcile.ts';
import { reconcileUsdGrants } from './usd-token.ts';
import { createX402Rail } from '../x402/rail.ts';

export interface AttachReport {
  /** Names minted again because the chain had lost them. */
  restored: string[];
  credit: ReconcileReport;
}

/**
 * Puts a service on the chain: ownership is read from the NFT (the database registry it replaces keeps a mirror
 * row per domain for parking and availability), credit is the Credit ERC-20, contract-account signatures are
 * checked against the chain, and the chain is brought back to what the database recorded (the journal) after a
 * crash: lost mints are minted again, and every faucet grant, charge and refund is set to its journal entry. Call it
 * before the service serves or processes orders.
 */
export async function attachChain(services: Services, chain: LocalChain): Promise<AttachReport> {
  const database = services.ownership;
  services.ownership = chain.ownership({ mirror: database });
  services.credit = chain.credit;
  setContractSignatureVerifier(services, chain.signatures);
  const restored = await restoreMissingMints(chain.clients, chain.deployment, services.db);
  // Undo writes the database never committed only on the anvil this service started: nobody else writes there, and
  // nothing is in flight before the service serves. A node given by CHAIN_RPC_URL may be shared with an instance
  // that is between its chain write and its commit.
  const credit = await reconcileCredit(chain.clients, chain.deployment, services.db, { undoAhead: chain.ownsNode });
  // The faucet's USD grants share the credit's journal rows (faucet_grants): one USD grant per row.
  const usd = chain.deployment.usdToken
    ? await reconcileUsdGrants(chain.clients, chain.deployment.usdToken, services.db, { undoAhead: chain.ownsNode })
    : { restored: 0, undone: 0 };
  if (chain.deployment.usdToken) services.x402 = await createX402Rail(chain.clients, chain.deployment.usdToken);
  credit.restored += usd.restored;
  credit.undone += usd.undone;
  if (restored.length > 0 || credit.restored > 0 || credit.undone > 0) await chain.saveState();
  return { restored, credit };
}
