import { concat, encodeAbiParameters, getAddress, type Address, type Hex } from 'viem';
import { canonicalAddress, ensureCanonical } from './aa-deploy.ts';
import type { ChainClients } from './client.ts';
import { bytecodeOf } from './contracts.ts';
import type { Deployment } from './deploy.ts';

/**
 * Solady's ERC-4337 account (`contracts/SoladyAccount.sol`: npm `solady`'s ERC4337 and ERC4337Factory, compiled
 * into the committed artifacts) on the local chain, for journeys that sign as a 4337 smart account through viem's
 * `toSoladySmartAccount`. Both go through the deterministic CREATE2 deployer with a zero salt, like the
 * account-abstraction contracts in aa-deploy.ts, so their addresses depend only on the artifacts and a restart that
 * finds the code deploys nothing.
 */

/** The factory's creation code: its constructor takes the implementation every account proxies to. */
function factoryInitCode(implementation: Address): Hex {
  return concat([bytecodeOf('SoladyAccountFactory'), encodeAbiParameters([{ type: 'address' }], [implementation])]);
}

/** Where the implementation and its factory land (deployed or not). */
export function soladyAddresses(): { soladyAccount: Address; soladyAccountFactory: Address } {
  const soladyAccount = getAddress(canonicalAddress(bytecodeOf('SoladyAccount')));
  return { soladyAccount, soladyAccountFactory: getAddress(canonicalAddress(factoryInitCode(soladyAccount))) };
}

/** Makes sure the implementation and the factory have code; returns the deployment with their addresses. */
export async function ensureSoladyAccounts(clients: ChainClients, deployment: Deployment): Promise<Deployment> {
  const soladyAccount = getAddress(await ensureCanonical(clients, bytecodeOf('SoladyAccount')));
  const soladyAccountFactory = getAddress(await ensureCanonical(clients, factoryInitCode(soladyAccount)));
  if (deployment.soladyAccount === soladyAccount && deployment.soladyAccountFactory === soladyAccountFactory) return deployment;
  return { ...deployment, soladyAccount, soladyAccountFactory };
}
