import { createRequire } from 'node:module';
import { concat, getAddress, getContractAddress, type Address, type Hex } from 'viem';
import { writeFileAtomic } from './atomic-file.ts';
import type { ChainClients } from './client.ts';
import { deploymentFile, type Deployment } from './deploy.ts';

/**
 * Account-abstraction contracts real wallets use, from their npm artifacts (`@account-abstraction/contracts`
 * 0.8.0), deployed on the local chain at start-up so journeys sign with them as on a public chain.
 *
 * They go through the deterministic CREATE2 deployer (0x4e59…956C, which anvil ships) with a zero salt, the way
 * their authors deployed them: the npm bytecode then lands at the canonical address, e.g. Simple7702Account
 * v0.8 at 0xe6Cae83BdE06E4c305530e199D7217f42808555B. A restart that finds the code there deploys nothing.
 */

const require = createRequire(import.meta.url);

/** The deterministic deployment proxy: calldata is salt ++ init code, it CREATE2s and returns the address. */
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
// Its runtime code, for a node started without it (anvil --disable-default-create2-deployer, another node).
const CREATE2_DEPLOYER_CODE: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';
const ZERO_SALT: Hex = `0x${'0'.repeat(64)}`;

interface Artifact {
  bytecode: Hex;
}

function aaArtifact(name: 'Simple7702Account'): Artifact {
  return require(`@account-abstraction/contracts/artifacts/${name}.json`) as Artifact;
}

/** Where `bytecode` lands through the deterministic deployer with a zero salt. */
export function canonicalAddress(bytecode: Hex): Address {
  return getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER, salt: ZERO_SALT, bytecode });
}

/** Simple7702Account v0.8's address: the code an EOA names in its EIP-7702 authorisation. */
export const SIMPLE_7702_ACCOUNT = canonicalAddress(aaArtifact('Simple7702Account').bytecode);

async function hasCode(clients: ChainClients, address: Address): Promise<boolean> {
  const code = await clients.public.getCode({ address });
  return !!code && code !== '0x';
}

/** Deploys `bytecode` (init code) at its canonical address unless it is there already. */
export async function ensureCanonical(clients: ChainClients, bytecode: Hex): Promise<Address> {
  const address = canonicalAddress(bytecode);
  if (await hasCode(clients, address)) return address;
  if (!(await hasCode(clients, CREATE2_DEPLOYER))) {
    await clients.public.request({ method: 'anvil_setCode' as never, params: [CREATE2_DEPLOYER, CREATE2_DEPLOYER_CODE] as never });
  }
  await clients.write((wallet) => wallet.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([ZERO_SALT, bytecode]) }));
  if (!(await hasCode(clients, address))) throw new Error(`the deterministic deployer created no code at ${address}`);
  return address;
}

/**
 * Makes sure the account-abstraction contracts are on the chain and returns the deployment with their addresses,
 * recorded in `<dataDir>/chain/deployment.json` beside the service's own contracts.
 */
export async function ensureAccountAbstraction(clients: ChainClients, deployment: Deployment, dataDir?: string): Promise<Deployment> {
  const simple7702Account = getAddress(await ensureCanonical(clients, aaArtifact('Simple7702Account').bytecode));
  if (deployment.simple7702Account === simple7702Account) return deployment;
  const next = { ...deployment, simple7702Account };
  if (dataDir) await writeFileAtomic(deploymentFile(dataDir), `${JSON.stringify(next, null, 2)}\n`);
  return next;
}
