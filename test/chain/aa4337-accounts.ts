import { concat, getAddress, keccak256, slice, stringToBytes, type Address, type Hex, type LocalAccount } from 'viem';
import { toSoladySmartAccount, type ToSoladySmartAccountReturnType } from 'viem/account-abstraction';
import type { ChainClients } from '../../server/chain/client.ts';

/**
 * Solady ERC-4337 accounts for tests and e2e, through viem's own `toSoladySmartAccount`: its `signMessage` and
 * `signTypedData` are what a wallet built on viem sends (ERC-7739 nested `PersonalSign` / `TypedDataSign` by the
 * owner, ERC-6492 wrapped with the factory's `createAccount(owner, salt)` while the account has no code).
 */

export type SoladyAccount = ToSoladySmartAccountReturnType;

/**
 * A salt of `owner`'s own: the factory requires a salt that starts with the owner's address (or with zeros, which
 * every owner may claim), and `label` tells one account of the owner from another.
 */
export function ownerSalt(owner: Address, label: string): Hex {
  return concat([getAddress(owner), slice(keccak256(stringToBytes(label)), 0, 12)]);
}

/**
 * The account `owner` holds through `factory` with `salt` (deployed or not: its address is the factory's CREATE2).
 * `address` names another account instead, as a wallet claiming an account it does not own would.
 */
export function soladyAccount(clients: ChainClients, options: { owner: LocalAccount; factory: Address; salt: Hex; address?: Address }): Promise<SoladyAccount> {
  return toSoladySmartAccount({ client: clients.public, owner: options.owner, factoryAddress: options.factory, salt: options.salt, address: options.address });
}

/** Deploys the account through its factory (the clients' account pays, as a bundler would); returns its address. */
export async function deploySoladyAccount(clients: ChainClients, account: SoladyAccount): Promise<Address> {
  if (!(await account.isDeployed())) {
    const { factory, factoryData } = await account.getFactoryArgs();
    if (!factory || !factoryData) throw new Error(`no factory call for the account ${account.address}`);
    await clients.write((wallet) => wallet.sendTransaction({ to: factory, data: factoryData }));
  }
  if (!(await account.isDeployed())) throw new Error(`the factory created no account at ${account.address}`);
  return account.address;
}
