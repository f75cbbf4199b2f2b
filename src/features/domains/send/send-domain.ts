import { whenWalletReady } from '@/lib/session/wallet-session.ts';

/**
 * Sending a domain is a transaction of the holder's own wallet on the registry's chain (the ERC-721's
 * `safeTransferFrom`), not a service call: the service follows the chain and sees the transfer whichever tool made
 * it. Reads go to the chain's configured RPC (wagmi's transport), so a service that does not answer stops nothing.
 */
// The two functions used, written out: importing viem's whole ERC-721 ABI would pull all of viem into this chunk.
const registryAbi = [
  {
    type: 'function',
    name: 'safeTransferFrom',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'tokenId', type: 'uint256' },
    ],
    outputs: [],
  },
] as const;
const erc165Abi = [{ type: 'function', name: 'supportsInterface', stateMutability: 'view', inputs: [{ name: 'interfaceId', type: 'bytes4' }], outputs: [{ type: 'bool' }] }] as const;
/** IERC721Receiver's interface id: onERC721Received(address,address,uint256,bytes). */
const ERC721_RECEIVER = '0x150b7a02';

type Address = `0x${string}`;

/**
 * What the receiving address is: a plain wallet (no code), a contract that says (ERC-165) it takes ERC-721 tokens, or
 * a contract that does not say so (safeTransferFrom reverts unless it implements onERC721Received, and even then the
 * contract may have no way to use or send the domain on).
 */
export type ReceiverKind = 'wallet' | 'receiver-contract' | 'contract';

export async function probeReceiver(chainId: number, address: Address): Promise<ReceiverKind> {
  const [config, { getBytecode, readContract }] = await Promise.all([whenWalletReady(), import('wagmi/actions')]);
  const code = await getBytecode(config, { chainId, address });
  if (!code || code === '0x') return 'wallet';
  const declares = await readContract(config, { chainId, address, abi: erc165Abi, functionName: 'supportsInterface', args: [ERC721_RECEIVER] }).catch(() => false);
  return declares ? 'receiver-contract' : 'contract';
}

export interface SendDomain {
  chainId: number;
  registry: Address;
  from: Address;
  to: Address;
  tokenId: string;
}

/** Asks the holder's wallet to send the token; resolves with the transaction's hash once the wallet sent it. */
export async function sendDomainToken(send: SendDomain): Promise<Address> {
  const [config, { writeContract }] = await Promise.all([whenWalletReady(), import('wagmi/actions')]);
  return writeContract(config, {
    chainId: send.chainId,
    account: send.from,
    address: send.registry,
    abi: registryAbi,
    functionName: 'safeTransferFrom',
    args: [send.from, send.to, BigInt(send.tokenId)],
  });
}

/** Waits for the transaction on the chain itself; answers its block, or throws when it reverted. */
export async function waitMined(chainId: number, hash: Address): Promise<{ blockNumber: bigint }> {
  const [config, { waitForTransactionReceipt }] = await Promise.all([whenWalletReady(), import('wagmi/actions')]);
  const receipt = await waitForTransactionReceipt(config, { chainId, hash, pollingInterval: 500 });
  if (receipt.status !== 'success') throw new Error(`The transaction ${hash} was mined but reverted: the domain did not move`);
  return { blockNumber: receipt.blockNumber };
}
