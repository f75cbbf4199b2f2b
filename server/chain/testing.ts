import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { startAnvil, type Anvil } from './anvil.ts';
import { chainClients, type ChainClients } from './client.ts';
import { ensureDeployment, type Deployment } from './deploy.ts';
import { fundOnAnvil } from './dev-actions.ts';

export interface TestChain {
  anvil: Anvil;
  clients: ChainClients;
  deployment: Deployment;
  dataDir: string;
  /** Gives `address` ETH for gas (anvil_setBalance). */
  fund(address: Address): Promise<void>;
  /** Stops anvil and removes the data dir. */
  close(): Promise<void>;
}

/** A fresh anvil on a free port with a temp data dir and the contracts deployed: one per test file. */
export async function startTestChain(): Promise<TestChain> {
  const dataDir = await mkdtemp(join(tmpdir(), 'namefi-chain-'));
  const anvil = await startAnvil({ dataDir });
  const clients = chainClients({ rpcUrl: anvil.rpcUrl });
  const { deployment } = await ensureDeployment(clients, { dataDir });
  return {
    anvil,
    clients,
    deployment,
    dataDir,
    fund: (address) => fundOnAnvil(clients, address),
    async close() {
      await anvil.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
