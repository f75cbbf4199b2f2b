import { keccak256, stringToBytes, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { delegateToSmartAccount, deploySmartAccount, setAccountSigner, smartAccountAddress } from '../../test/chain/accounts.ts';
import { chainClients, type ChainClients } from '../../server/chain/client.ts';
import { domainRegistryAbi } from '../../server/chain/contracts.ts';
import { deploymentFile, readDeployment, type Deployment } from '../../server/chain/deploy.ts';
import { fundOnAnvil, transferDomain } from '../../test/chain/dev-actions.ts';
import { tokenIdOf } from '../../server/ownership/ownership.ts';
import { CHAIN_RPC_URL, DATA_DIR } from './env.ts';

/**
 * The e2e run's chain, as the service deployed it (anvil on E2E_CHAIN_RPC_URL, contracts in the e2e data dir),
 * and the on-chain chores journeys need: smart accounts, signers, gas, NFT transfers. Everything goes through
 * the server's own chain functions.
 *
 * The journeys' transactions are paid by a key of their own: anvil's account 0 is the service's minter (and the
 * test key alice), and two senders sharing one account would race for its nonce; for the same reason each
 * Playwright worker (journeys run two files at a time) pays from a key of its own.
 */
const PAYER_KEY = keccak256(stringToBytes(`namefi e2e chain payer ${process.env.TEST_PARALLEL_INDEX ?? '0'}`));

export interface E2eChain {
  clients: ChainClients;
  deployment: Deployment;
}

let current: Promise<E2eChain> | undefined;

export function e2eChain(): Promise<E2eChain> {
  current ??= (async () => {
    const deployment = await readDeployment(deploymentFile(DATA_DIR));
    if (!deployment) throw new Error(`No chain deployment in ${DATA_DIR}: is the service running with CHAIN=anvil?`);
    const clients = chainClients({ rpcUrl: CHAIN_RPC_URL, chainId: deployment.chainId, serviceKey: PAYER_KEY });
    await fundOnAnvil(clients, clients.wallet.account.address, '1000');
    return { clients, deployment };
  })();
  return current;
}

/** A CREATE2 salt per journey, so each one gets a fresh account of its own. */
export function saltOf(label: string): Hex {
  return keccak256(stringToBytes(label));
}

export interface SmartAccountRef {
  address: Address;
  owner: Address;
  salt: Hex;
  factory: Address;
  deployed: boolean;
}

/** The smart account of `ownerKey` for `salt`: deployed (`deploy: true`) or only predicted (counterfactual). */
export async function smartAccountOf(ownerKey: Hex, options: { salt: Hex; deploy: boolean }): Promise<SmartAccountRef> {
  const { clients, deployment } = await e2eChain();
  const owner = privateKeyToAccount(ownerKey).address;
  const address = options.deploy
    ? await deploySmartAccount(clients, deployment, owner, options.salt)
    : await smartAccountAddress(clients, deployment, owner, options.salt);
  return { address, owner, salt: options.salt, factory: deployment.accountFactory, deployed: options.deploy };
}

/** The account's owner approves (or removes) `signer`; the owner sends the transaction, so it gets gas first. */
export async function approveSigner(ownerKey: Hex, account: Address, signer: Address, approved = true): Promise<void> {
  const { clients } = await e2eChain();
  const owner = privateKeyToAccount(ownerKey);
  await fundOnAnvil(clients, owner.address);
  await setAccountSigner(clients, { owner, account, signer, approved });
}

/** The holder of a domain's NFT sends it to `to`, as a wallet would (the holder gets gas first). */
export async function transferDomainNft(holderKey: Hex, to: Address, name: string): Promise<void> {
  const { clients, deployment } = await e2eChain();
  const holder = privateKeyToAccount(holderKey);
  await fundOnAnvil(clients, holder.address);
  await transferDomain(clients, deployment, { holder, to, name });
}

/** Gives a test wallet ETH for gas, so that it can send its own transactions (a domain, from the dashboard). */
export async function fundWallet(address: Address): Promise<void> {
  const { clients } = await e2eChain();
  await fundOnAnvil(clients, address);
}

/** Who holds the domain's NFT on chain. */
export async function nftOwnerOf(name: string): Promise<Address> {
  const { clients, deployment } = await e2eChain();
  return clients.public.readContract({ address: deployment.registry, abi: domainRegistryAbi, functionName: 'ownerOf', args: [BigInt(tokenIdOf(name))] });
}

/**
 * The EOA of `key` delegates with EIP-7702 to Simple7702Account (account-abstraction 0.8) as the service deployed
 * it: the EOA signs the authorisation, the journeys' payer sends the type-4 transaction. Returns the delegate.
 */
export async function delegateToSimple7702(key: Hex): Promise<Address> {
  const { clients, deployment } = await e2eChain();
  if (!deployment.simple7702Account) throw new Error('The service recorded no Simple7702Account: is it running with CHAIN=anvil?');
  await delegateToSmartAccount(clients, { accountImplementation: deployment.simple7702Account }, privateKeyToAccount(key));
  return deployment.simple7702Account;
}
