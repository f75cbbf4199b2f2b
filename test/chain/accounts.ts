import { encodeFunctionData, getAddress, serializeErc6492Signature, type Address, type Hex, type LocalAccount } from 'viem';
import type { ChainClients } from '../../server/chain/client.ts';
import { smartAccountAbi, smartAccountFactoryAbi } from '../../server/chain/contracts.ts';
import type { Deployment } from '../../server/chain/deploy.ts';

/**
 * Smart-account chores for tests, e2e set-up and scripts: predict or deploy an account, wrap a signature for
 * ERC-6492, approve a signer, and upgrade an EOA with EIP-7702. The service's account pays for what it sends.
 */

type FactoryDeployment = Pick<Deployment, 'accountFactory'>;

/** The account's address for `owner` and `salt`, deployed or not (CREATE2). */
export function smartAccountAddress(clients: ChainClients, deployment: FactoryDeployment, owner: Address, salt: Hex = `0x${'0'.repeat(64)}`): Promise<Address> {
  return clients.public.readContract({ address: deployment.accountFactory, abi: smartAccountFactoryAbi, functionName: 'getAddress', args: [owner, salt] });
}

/** Deploys the account of `owner` (the service pays); a second call returns the same account. */
export async function deploySmartAccount(clients: ChainClients, deployment: FactoryDeployment, owner: Address, salt: Hex = `0x${'0'.repeat(64)}`): Promise<Address> {
  await clients.write((w) => w.writeContract({ address: deployment.accountFactory, abi: smartAccountFactoryAbi, functionName: 'createAccount', args: [owner, salt] }));
  return smartAccountAddress(clients, deployment, owner, salt);
}

/**
 * Wraps the owner's signature for an account that does not exist yet (ERC-6492): a verifier deploys the account
 * through the factory in a simulated call, then asks it with ERC-1271.
 */
export function erc6492Signature(deployment: FactoryDeployment, owner: Address, signature: Hex, salt: Hex = `0x${'0'.repeat(64)}`): Hex {
  return serializeErc6492Signature({
    address: deployment.accountFactory,
    data: encodeFunctionData({ abi: smartAccountFactoryAbi, functionName: 'createAccount', args: [owner, salt] }),
    signature,
  });
}

/**
 * Approves (or removes) an extra signer of `account`. `owner` sends the call itself (it needs gas): the account's
 * owner EOA, or for an EIP-7702 account the EOA itself.
 */
export async function setAccountSigner(
  clients: ChainClients,
  input: { owner: LocalAccount; account: Address; signer: Address; approved: boolean },
): Promise<void> {
  const hash = await clients.wallet.writeContract({
    account: input.owner,
    address: input.account,
    abi: smartAccountAbi,
    functionName: 'setSigner',
    args: [getAddress(input.signer), input.approved],
  });
  const receipt = await clients.receipt(hash);
  if (receipt.status !== 'success') throw new Error(`setSigner on ${input.account} reverted`);
}

/**
 * Upgrades `eoa` with EIP-7702 to the SmartAccount code: `eoa` signs the authorisation, the service sends the
 * type-4 transaction and pays for it. Afterwards the EOA answers ERC-1271 (and accepts its own signatures).
 */
export async function delegateToSmartAccount(clients: ChainClients, deployment: Pick<Deployment, 'accountImplementation'>, eoa: LocalAccount): Promise<void> {
  const authorization = await clients.wallet.signAuthorization({ account: eoa, contractAddress: deployment.accountImplementation });
  await clients.write((w) => w.sendTransaction({ authorizationList: [authorization], to: eoa.address, data: '0x' }));
}
