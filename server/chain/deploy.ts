import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { getAddress, isAddress, type Address } from 'viem';
import type { ChainClients } from './client.ts';
import type { ContractName } from './compile.ts';
import { bytecodeOf, creditAbi, domainRegistryAbi, smartAccountFactoryAbi } from './contracts.ts';

/** Where the service's contracts live on the chain. Kept in `<DATA_DIR>/chain/deployment.json`. */
export interface Deployment {
  chainId: number;
  registry: Address;
  credit: Address;
  accountFactory: Address;
  /** The SmartAccount code EOAs delegate to with EIP-7702. */
  accountImplementation: Address;
  /** The EIP-3009 USD token x402 payments use (chain/usd-deploy.ts); absent until it is deployed. */
  usdToken?: Address;
  deployedAt: string;
}

export const deploymentFile = (dataDir: string) => join(resolve(dataDir, 'chain'), 'deployment.json');

/**
 * Returns the deployment recorded in `dataDir` when its contracts still have code on this chain, else deploys
 * them all again (a fresh or reset chain) and records the new addresses. Without `dataDir` it always deploys.
 */
export async function ensureDeployment(
  clients: ChainClients,
  options: { dataDir?: string } = {},
): Promise<{ deployment: Deployment; deployed: boolean }> {
  const file = options.dataDir ? deploymentFile(options.dataDir) : null;
  const recorded = file ? await readDeployment(file) : null;
  if (recorded && recorded.chainId === clients.chain.id && (await hasCode(clients, recorded))) {
    return { deployment: recorded, deployed: false };
  }
  const deployment = await deployContracts(clients);
  if (file) {
    await mkdir(resolve(file, '..'), { recursive: true });
    // Write then rename, so a crash never leaves half a file.
    await writeFile(`${file}.tmp`, `${JSON.stringify(deployment, null, 2)}\n`);
    await rename(`${file}.tmp`, file);
  }
  return { deployment, deployed: true };
}

/** Deploys the registry, the credit and the account factory with the service's account as their owner. */
export async function deployContracts(clients: ChainClients): Promise<Deployment> {
  const deploy = async (name: ContractName, abi: typeof domainRegistryAbi | typeof creditAbi | typeof smartAccountFactoryAbi) => {
    const receipt = await clients.write((wallet) => wallet.deployContract({ abi, bytecode: bytecodeOf(name) }));
    if (!receipt.contractAddress) throw new Error(`deploying ${name} created no contract`);
    return receipt.contractAddress;
  };
  const registry = await deploy('DomainRegistry', domainRegistryAbi);
  const credit = await deploy('Credit', creditAbi);
  const accountFactory = await deploy('SmartAccountFactory', smartAccountFactoryAbi);
  const accountImplementation = await clients.public.readContract({
    address: accountFactory,
    abi: smartAccountFactoryAbi,
    functionName: 'implementation',
  });
  return {
    chainId: clients.chain.id,
    registry: getAddress(registry),
    credit: getAddress(credit),
    accountFactory: getAddress(accountFactory),
    accountImplementation: getAddress(accountImplementation),
    deployedAt: new Date().toISOString(),
  };
}

/** The deployment recorded in `file`, or null when there is none or it is malformed. */
export async function readDeployment(file: string): Promise<Deployment | null> {
  let parsed: Partial<Deployment>;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Deployment>;
  } catch {
    return null;
  }
  const addresses = [parsed.registry, parsed.credit, parsed.accountFactory, parsed.accountImplementation];
  if (typeof parsed.chainId !== 'number' || !addresses.every((a) => typeof a === 'string' && isAddress(a))) return null;
  return parsed as Deployment;
}

async function hasCode(clients: ChainClients, d: Deployment): Promise<boolean> {
  const codes = await Promise.all(
    [d.registry, d.credit, d.accountFactory, d.accountImplementation].map((address) => clients.public.getCode({ address })),
  );
  return codes.every((code) => code !== undefined && code !== '0x');
}
