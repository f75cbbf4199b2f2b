import type { Queryable } from '../db/database.ts';
import type { Ownership } from '../ownership/ownership.ts';
import { chainOwnership } from './chain-ownership.ts';
import { startAnvil, type Anvil } from './anvil.ts';
import { chainClients, type ChainClients } from './client.ts';
import { chainCredit, type CreditLedger } from './credit.ts';
import { ensureAccountAbstraction } from './aa-deploy.ts';
import { ensureSoladyAccounts } from './aa4337-deploy.ts';
import { ensureDeployment, recordDeployment, type Deployment } from './deploy.ts';
import { upgradeRegistryCode } from './registry-code.ts';
import { ensureSafeContracts } from './safe-deploy.ts';
import { ensureUsdToken } from './usd-deploy.ts';
import { chainSignatures } from './verify.ts';
import type { ContractSignatureVerifier } from '../auth/contract-signatures.ts';

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  clients: ChainClients;
  deployment: Deployment;
  /** True when this start deployed the contracts (a new or reset chain). */
  deployed: boolean;
  /** Ownership from the NFT; pass the database registry as `mirror` so `domains` rows (parking, availability) exist. */
  ownership(options?: { mirror?: Ownership }): Ownership;
  credit: CreditLedger;
  /** Whether a contract account (ERC-1271, ERC-6492, EIP-7702) accepts a signature, asked of this chain. */
  signatures: ContractSignatureVerifier;
  /** True when this service started the node (anvil), so no one else writes to it. */
  ownsNode: boolean;
  /** The anvil this service started, when it did: its state on start, its pidfile. */
  anvil: Anvil | null;
  /** Saves the started anvil's state now (atomically); nothing for a node given by CHAIN_RPC_URL. */
  saveState(): Promise<void>;
  /** Milliseconds spent starting the node and ensuring the deployment. */
  timings: { nodeMs: number; deployMs: number };
  /** Stops the anvil this started (its state is saved); leaves a node given by CHAIN_RPC_URL running. */
  stop(): Promise<void>;
}

/** Starts (or connects to) the chain and makes sure the contracts are there. */
export async function startLocalChain(options: { dataDir: string; rpcUrl?: string; port?: number; stateIntervalS?: number; db?: Queryable }): Promise<LocalChain> {
  const started = performance.now();
  let anvil: Anvil | null = null;
  let rpcUrl = options.rpcUrl;
  if (!rpcUrl) {
    anvil = await startAnvil({ dataDir: options.dataDir, port: options.port, stateIntervalS: options.stateIntervalS });
    rpcUrl = anvil.rpcUrl;
  }
  try {
    const chainId = anvil ? anvil.chainId : await chainClients({ rpcUrl }).public.getChainId();
    const clients = chainClients({ rpcUrl, chainId });
    const nodeMs = performance.now() - started;
    const { deployment: ours, deployed } = await ensureDeployment(clients, { dataDir: options.dataDir, db: options.db });
    // A data dir kept from before the registry learnt renewals and releases: its registry gets today's code.
    if (anvil && !deployed) await upgradeRegistryCode(clients, ours.registry);
    // Contracts added since: each module deploys its own when missing; the whole set is then recorded.
    const withAccounts = await ensureSoladyAccounts(clients, await ensureAccountAbstraction(clients, ours, options.dataDir));
    const { deployment } = await ensureUsdToken(clients, { deployment: withAccounts, deployed }, options.dataDir);
    await recordDeployment(deployment, options);
    // The real Safe 1.4.1 contracts at their canonical addresses, for Safe accounts and the dashboard as a Safe App.
    await ensureSafeContracts(clients);
    return {
      rpcUrl,
      chainId,
      clients,
      deployment,
      deployed,
      ownership: (o = {}) => chainOwnership(clients, deployment, o),
      credit: chainCredit(clients, deployment),
      signatures: chainSignatures(clients.public),
      ownsNode: anvil !== null,
      anvil,
      saveState: async () => {
        await anvil?.saveState();
      },
      timings: { nodeMs: Math.round(nodeMs), deployMs: Math.round(performance.now() - started - nodeMs) },
      stop: async () => {
        await anvil?.stop();
      },
    };
  } catch (error) {
    await anvil?.stop();
    throw error;
  }
}
