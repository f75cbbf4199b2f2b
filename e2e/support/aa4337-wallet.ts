import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deploySoladyAccount, ownerSalt, soladyAccount } from '../../test/chain/aa4337-accounts.ts';
import { e2eChain } from './chain.ts';
import type { SmartAccountMode } from './test-wallet.ts';

/**
 * The test wallet as a wallet built on viem's `toSoladySmartAccount` (Solady's ERC-4337 account): it reports the
 * account's address and hands every request to viem's account object, which signs with the owner key in ERC-7739
 * form and wraps in ERC-6492 while the account has no code. The owner key stays in Node.
 */
export interface Aa4337Wallet extends SmartAccountMode {
  address: Address;
  deployed: boolean;
}

/** `ownerKey`'s Solady account for `label` (one account per label), deployed through the factory or only predicted. */
export async function aa4337Wallet(ownerKey: Hex, options: { label: string; deploy: boolean }): Promise<Aa4337Wallet> {
  const { clients, deployment } = await e2eChain();
  if (!deployment.soladyAccountFactory) throw new Error('The chain deployment has no Solady account factory: is the service up to date?');
  const owner = privateKeyToAccount(ownerKey);
  const account = await soladyAccount(clients, { owner, factory: deployment.soladyAccountFactory, salt: ownerSalt(owner.address, options.label) });
  if (options.deploy) await deploySoladyAccount(clients, account);
  return {
    address: account.address,
    deployed: options.deploy,
    signMessage: (raw) => account.signMessage({ message: { raw } }),
    signTypedData: (definition) => account.signTypedData(definition),
  };
}
