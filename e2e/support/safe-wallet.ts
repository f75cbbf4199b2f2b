import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deploySafe, safeAddress, signAsSafe, wrapForUndeployedSafe, type SafeConfig } from '../../test/chain/safe-accounts.ts';
import { e2eChain } from './chain.ts';
import type { SmartAccountMode } from './test-wallet.ts';

/**
 * The test wallet as Safe{Wallet}: it reports the Safe's address, and for every signature each signing owner signs
 * the EIP-712 `SafeMessage` of the page's digest under the Safe's domain, concatenated in owner order (ERC-6492
 * wrapped with the proxy factory's createProxyWithNonce call while the Safe is not deployed). Owner keys stay in
 * Node, as they stay in the owners' own wallets.
 */
export interface SafeWallet extends SmartAccountMode {
  address: Address;
  config: SafeConfig;
  deployed: boolean;
}

let saltNonces = 0n;

/**
 * A Safe of `ownerKeys` with `threshold`, deployed through the real SafeProxyFactory (or only predicted); its
 * signatures come from the first `threshold` owners, or from `signers` (indexes into `ownerKeys`).
 */
export async function safeWallet(ownerKeys: Hex[], options: { threshold: number; deploy: boolean; signers?: number[] }): Promise<SafeWallet> {
  const owners = ownerKeys.map((k) => privateKeyToAccount(k));
  const config: SafeConfig = { owners: owners.map((o) => o.address), threshold: options.threshold, saltNonce: BigInt(Date.now()) * 1000n + ++saltNonces };
  const { clients } = await e2eChain();
  const address = options.deploy ? await deploySafe(clients, config) : safeAddress(config);
  const signing = (options.signers ?? owners.slice(0, options.threshold).map((_, i) => i)).map((i) => owners[i]);
  return {
    address,
    config,
    deployed: options.deploy,
    async signDigest(digest) {
      const signature = await signAsSafe({ safe: address, chainId: clients.chain.id, hash: digest, owners: signing });
      return options.deploy ? signature : wrapForUndeployedSafe(config, signature);
    },
  };
}
