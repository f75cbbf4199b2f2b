import { mkdir, rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { getAddress } from 'viem';
import type { ChainClients } from './client.ts';
import { bytecodeOf, usdTokenAbi } from './contracts.ts';
import { deploymentFile, type Deployment } from './deploy.ts';

/**
 * Makes sure the deployment has the EIP-3009 USD token (x402 payments): kept when its code is on the chain, else
 * deployed and recorded in `deployment.json` beside the other contracts. Kept apart from deploy.ts so a data dir
 * made before the token existed gains it on its next start without redeploying the rest.
 */
export async function ensureUsdToken(
  clients: ChainClients,
  current: { deployment: Deployment; deployed: boolean },
  dataDir?: string,
): Promise<{ deployment: Deployment; deployed: boolean }> {
  const recorded = current.deployment.usdToken;
  if (recorded) {
    const code = await clients.public.getCode({ address: recorded });
    if (code && code !== '0x') return current;
  }
  const receipt = await clients.write((w) => w.deployContract({ abi: usdTokenAbi, bytecode: bytecodeOf('UsdToken') }));
  if (!receipt.contractAddress) throw new Error('deploying UsdToken created no contract');
  const deployment = { ...current.deployment, usdToken: getAddress(receipt.contractAddress) };
  if (dataDir) {
    const file = deploymentFile(dataDir);
    await mkdir(resolve(file, '..'), { recursive: true });
    await writeFile(`${file}.tmp`, `${JSON.stringify(deployment, null, 2)}\n`);
    await rename(`${file}.tmp`, file);
  }
  return { deployment, deployed: current.deployed };
}
