import {
  concat,
  encodeFunctionData,
  encodePacked,
  getAddress,
  getContractAddress,
  hashTypedData,
  keccak256,
  pad,
  serializeErc6492Signature,
  zeroAddress,
  type Address,
  type Hex,
  type LocalAccount,
} from 'viem';
import type { ChainClients } from '../../server/chain/client.ts';
import { safeArtifact, safeDeployment, type SafeDeployment } from '../../server/chain/safe-deploy.ts';

/**
 * Safe accounts for tests, e2e and the Safe App host: the address a Safe of given owners will have, its deployment
 * through the real SafeProxyFactory, and signatures made as Safe{Wallet} makes them.
 */

export interface SafeConfig {
  owners: Address[];
  threshold: number;
  /** The proxy factory's `saltNonce`: another one gives another Safe of the same owners. */
  saltNonce: bigint;
}

/** `Safe.setup(...)` as Safe{Wallet} calls it: owners, threshold, the CompatibilityFallbackHandler, nothing else. */
function safeInitializer(config: SafeConfig, deployment: SafeDeployment = safeDeployment()): Hex {
  return encodeFunctionData({
    abi: safeArtifact('SafeL2').abi,
    functionName: 'setup',
    args: [config.owners.map((o) => getAddress(o)), BigInt(config.threshold), zeroAddress, '0x', deployment.fallbackHandler, zeroAddress, 0n, zeroAddress],
  });
}

/** The factory call that creates the Safe (also what an ERC-6492 signature carries for a Safe not deployed yet). */
function safeCreationCall(config: SafeConfig, deployment: SafeDeployment = safeDeployment()): { to: Address; data: Hex } {
  return {
    to: deployment.proxyFactory,
    data: encodeFunctionData({
      abi: safeArtifact('SafeProxyFactory').abi,
      functionName: 'createProxyWithNonce',
      args: [deployment.singleton, safeInitializer(config, deployment), config.saltNonce],
    }),
  };
}

/** The Safe's address, deployed or not: SafeProxyFactory's CREATE2 of the proxy with the singleton as argument. */
export function safeAddress(config: SafeConfig, deployment: SafeDeployment = safeDeployment()): Address {
  const salt = keccak256(encodePacked(['bytes32', 'uint256'], [keccak256(safeInitializer(config, deployment)), config.saltNonce]));
  const initCode = concat([safeArtifact('SafeProxy').bytecode, pad(deployment.singleton, { size: 32 })]);
  return getContractAddress({ opcode: 'CREATE2', from: deployment.proxyFactory, salt, bytecodeHash: keccak256(initCode) });
}

/** Deploys the Safe (the service's or the given clients' account pays); returns its address. */
export async function deploySafe(clients: ChainClients, config: SafeConfig, deployment: SafeDeployment = safeDeployment()): Promise<Address> {
  const address = safeAddress(config, deployment);
  const code = await clients.public.getCode({ address });
  if (!code || code === '0x') await clients.write((wallet) => wallet.sendTransaction(safeCreationCall(config, deployment)));
  return address;
}

/**
 * The EIP-712 digest each owner signs for `hash`: Safe{Wallet} never signs the message itself but a
 * `SafeMessage(bytes message)` holding its hash (the EIP-712 hash of typed data, the EIP-191 hash of a text), under
 * the Safe's own domain. It is what CompatibilityFallbackHandler's isValidSignature checks the owners against.
 */
export function safeMessageHash(safe: Address, chainId: number, hash: Hex): Hex {
  return hashTypedData({
    domain: { chainId, verifyingContract: getAddress(safe) },
    types: { SafeMessage: [{ name: 'message', type: 'bytes' }] },
    primaryType: 'SafeMessage',
    message: { message: hash },
  });
}

/**
 * The Safe's signature of `hash`: each owner's EIP-712 signature of the SafeMessage, concatenated in ascending
 * owner address (Safe's checkSignatures insists on that order). Pass as many owners as the threshold asks.
 */
export async function signAsSafe(input: { safe: Address; chainId: number; hash: Hex; owners: LocalAccount[] }): Promise<Hex> {
  const sorted = [...input.owners].sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1));
  const signatures = await Promise.all(
    sorted.map((owner) =>
      owner.signTypedData({
        domain: { chainId: input.chainId, verifyingContract: getAddress(input.safe) },
        types: { SafeMessage: [{ name: 'message', type: 'bytes' }] },
        primaryType: 'SafeMessage',
        message: { message: input.hash },
      }),
    ),
  );
  return concat(signatures);
}

/** An undeployed Safe's signature (ERC-6492): the verifier creates the Safe in a simulation, then asks it. */
export function wrapForUndeployedSafe(config: SafeConfig, signature: Hex, deployment: SafeDeployment = safeDeployment()): Hex {
  const call = safeCreationCall(config, deployment);
  return serializeErc6492Signature({ address: call.to, data: call.data, signature });
}
