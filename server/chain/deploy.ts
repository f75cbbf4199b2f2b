import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { getAddress, isAddress, type Address } from 'viem';
import type { Queryable } from '../db/database.ts';
import type { ChainClients } from './client.ts';
import { bytecodeOf, creditAbi, domainRegistryAbi, smartAccountFactoryAbi, type ContractName } from './contracts.ts';

/** Where the service's contracts live on the chain. Kept in `<DATA_DIR>/chain/deployment.json`. */
export interface Deployment {
  chainId: number;
  registry: Address;
  credit: Address;
  accountFactory: Address;
  /** The SmartAccount code EOAs delegate to with EIP-7702. */
  accountImplementation: Address;
  /** Simple7702Account (account-abstraction 0.8), at its canonical address: see aa-deploy.ts. */
  simple7702Account?: Address;
  /** Solady's ERC-4337 account implementation, at its canonical address: see aa4337-deploy.ts. */
  soladyAccount?: Address;
  /** Solady's ERC4337Factory for it: the factory viem's toSoladySmartAccount and ERC-6492 signatures name. */
  soladyAccountFactory?: Address;
  /** The EIP-3009 USD token x402 payments use (chain/usd-deploy.ts); absent until it is deployed. */
  usdToken?: Address;
  deployedAt: string;
}

export const deploymentFile = (dataDir: string) => join(resolve(dataDir, 'chain'), 'deployment.json');

/**
 * Returns the recorded deployment when its contracts still have code on this chain, else deploys them all again (a
 * fresh or reset chain) and records the new addresses. The record is the database's (`chain_deployments`, shared by
 * instances on one chain; call this under `db.exclusive` so two of them never both deploy) and a copy in
 * `<dataDir>/chain/deployment.json`, which also serves a database that has none yet. Without either it always deploys.
 */
export async function ensureDeployment(
  clients: ChainClients,
  options: { dataDir?: string; db?: Queryable } = {},
): Promise<{ deployment: Deployment; deployed: boolean }> {
  const file = options.dataDir ? deploymentFile(options.dataDir) : null;
  const fromDb = options.db ? await readRecordedDeployment(options.db, clients.chain.id) : null;
  const fromFile = file ? await readDeployment(file) : null;
  // The file may know of a contract added after the database's record was written (a crash in between).
  const merged = fromDb && fromFile?.registry === fromDb.registry ? { ...fromFile, ...fromDb } : fromDb;
  for (const recorded of [merged, fromFile]) {
    if (recorded && recorded.chainId === clients.chain.id && (await hasCode(clients, recorded))) {
      await recordDeployment(recorded, options);
      return { deployment: recorded, deployed: false };
    }
  }
  const deployment = await deployContracts(clients);
  await recordDeployment(deployment, options);
  return { deployment, deployed: true };
}

/** Records the deployment in the database and in `<dataDir>/chain/deployment.json`, where it changed. */
export async function recordDeployment(deployment: Deployment, options: { dataDir?: string; db?: Queryable }): Promise<void> {
  const { db } = options;
  const file = options.dataDir ? deploymentFile(options.dataDir) : null;
  if (db) {
    await db.query(
      `INSERT INTO chain_deployments (chain_id, deployment) VALUES ($1, $2)
       ON CONFLICT (chain_id) DO UPDATE SET deployment = EXCLUDED.deployment, recorded_at = now() WHERE chain_deployments.deployment <> EXCLUDED.deployment`,
      [deployment.chainId, JSON.stringify(deployment)],
    );
  }
  if (file && JSON.stringify(await readDeployment(file)) !== JSON.stringify(deployment)) {
    await mkdir(resolve(file, '..'), { recursive: true });
    // Write then rename, so a crash never leaves half a file.
    await writeFile(`${file}.tmp`, `${JSON.stringify(deployment, null, 2)}\n`);
    await rename(`${file}.tmp`, file);
  }
}

async function readRecordedDeployment(db: Queryable, chainId: number): Promise<Deployment | null> {
  const [row] = await db.query<{ deployment: unknown }>('SELECT deployment FROM chain_deployments WHERE chain_id = $1', [chainId]);
  const raw = typeof row?.deployment === 'string' ? JSON.parse(row.deployment) : row?.deployment;
  return raw ? asDeployment(raw) : null;
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
  try {
    return asDeployment(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return null;
  }
}

function asDeployment(value: unknown): Deployment | null {
  const parsed = (value ?? {}) as Partial<Deployment>;
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
