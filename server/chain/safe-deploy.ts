import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { concat, createTestClient, getContractAddress, http, isAddressEqual, keccak256, type Abi, type Address, type Hex } from 'viem';
import type { ChainClients } from './client.ts';

/**
 * The real Safe 1.4.1 contracts (from the `@safe-global/safe-contracts` npm artifacts) on the local chain, at the
 * addresses they have on every public chain: Safe{Wallet} deploys them through the Safe singleton factory with a
 * zero salt, so the same creation code through the same factory lands at the same CREATE2 address here.
 */

/** The Safe singleton factory: the same runtime code as the Arachnid deterministic deployment proxy. */
const SAFE_SINGLETON_FACTORY: Address = '0x914d7Fec6aaC8cd542e72Bca78B30650d45643d7';
/**
 * Its runtime code: calldata is `salt ‖ initCode`, it CREATE2s and returns the 20-byte address. Anvil has no key
 * to deploy it the way public chains did (a pre-signed transaction per chain id), so it is set with anvil_setCode.
 */
const FACTORY_RUNTIME: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';
const ZERO_SALT: Hex = `0x${'0'.repeat(64)}`;

const SAFE_CONTRACTS = {
  SafeL2: 'SafeL2.sol/SafeL2.json',
  Safe: 'Safe.sol/Safe.json',
  SafeProxyFactory: 'proxies/SafeProxyFactory.sol/SafeProxyFactory.json',
  CompatibilityFallbackHandler: 'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json',
} as const;
export type SafeContractName = keyof typeof SAFE_CONTRACTS;
/** Artifacts read but not deployed on their own: the proxy's creation code is what the factory CREATE2s. */
const SAFE_ARTIFACTS = { ...SAFE_CONTRACTS, SafeProxy: 'proxies/SafeProxy.sol/SafeProxy.json' } as const;
type SafeArtifactName = keyof typeof SAFE_ARTIFACTS;

/** The canonical 1.4.1 addresses (safe-deployments' `canonical`): checked against our own CREATE2 sums in tests. */
export const SAFE_CANONICAL: Record<SafeContractName, Address> = {
  SafeL2: '0x29fcB43b46531BcA003ddC8FCB67FFE91900C762',
  Safe: '0x41675C099F32341bf84BFc5382aF534df5C7461a',
  SafeProxyFactory: '0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67',
  CompatibilityFallbackHandler: '0xfd0732Dc9E303f09fCEf3a7388Ad10A83459Ec99',
};

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}
const artifacts = new Map<SafeArtifactName, Artifact>();
const requireFromHere = createRequire(import.meta.url);

/** The npm artifact of a Safe contract (read once). */
export function safeArtifact(name: SafeArtifactName): Artifact {
  let artifact = artifacts.get(name);
  if (!artifact) {
    const file = requireFromHere.resolve(`@safe-global/safe-contracts/build/artifacts/contracts/${SAFE_ARTIFACTS[name]}`);
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Artifact;
    artifact = { abi: parsed.abi, bytecode: parsed.bytecode };
    artifacts.set(name, artifact);
  }
  return artifact;
}

/** Where the singleton factory puts `name`: the canonical address when the npm creation code is the deployed one. */
function safeAddressOf(name: SafeContractName): Address {
  return getContractAddress({ opcode: 'CREATE2', from: SAFE_SINGLETON_FACTORY, salt: ZERO_SALT, bytecodeHash: keccak256(safeArtifact(name).bytecode) });
}

export interface SafeDeployment {
  singleton: Address;
  singletonL1: Address;
  proxyFactory: Address;
  fallbackHandler: Address;
}

/** The Safe contracts' addresses on the local chain (deployed or not). */
export function safeDeployment(): SafeDeployment {
  return {
    singleton: safeAddressOf('SafeL2'),
    singletonL1: safeAddressOf('Safe'),
    proxyFactory: safeAddressOf('SafeProxyFactory'),
    fallbackHandler: safeAddressOf('CompatibilityFallbackHandler'),
  };
}

/**
 * Makes sure the Safe singletons (L2 and L1), the proxy factory and the fallback handler have code: each one
 * missing is deployed through the singleton factory (installed first if the chain lacks it). A chain that has them
 * (a restarted anvil with its state) costs four `eth_getCode`. Needs anvil (anvil_setCode) only when the factory is
 * missing too. Returns the addresses and which were deployed now.
 */
export async function ensureSafeContracts(clients: ChainClients): Promise<SafeDeployment & { deployedNow: SafeContractName[] }> {
  const names = Object.keys(SAFE_CONTRACTS) as SafeContractName[];
  const codes = await Promise.all(names.map((name) => clients.public.getCode({ address: safeAddressOf(name) })));
  const missing = names.filter((_, i) => !codes[i] || codes[i] === '0x');
  if (missing.length > 0) {
    const factoryCode = await clients.public.getCode({ address: SAFE_SINGLETON_FACTORY });
    if (!factoryCode || factoryCode === '0x') {
      const rpcUrl = clients.chain.rpcUrls.default.http[0];
      await createTestClient({ mode: 'anvil', chain: clients.chain, transport: http(rpcUrl) }).setCode({ address: SAFE_SINGLETON_FACTORY, bytecode: FACTORY_RUNTIME });
    }
    for (const name of missing) {
      await clients.write((wallet) => wallet.sendTransaction({ to: SAFE_SINGLETON_FACTORY, data: concat([ZERO_SALT, safeArtifact(name).bytecode]) }));
      const code = await clients.public.getCode({ address: safeAddressOf(name) });
      if (!code || code === '0x') throw new Error(`deploying the Safe contract ${name} through the singleton factory created no code`);
    }
  }
  return { ...safeDeployment(), deployedNow: missing };
}

/** Whether the npm artifacts land at Safe's canonical addresses (they do for 1.4.1; a mismatch means other code). */
export function safeAddressesAreCanonical(): boolean {
  return (Object.keys(SAFE_CANONICAL) as SafeContractName[]).every((name) => isAddressEqual(safeAddressOf(name), SAFE_CANONICAL[name]));
}
