import { whenWalletReady } from '@/lib/session/wallet-session.ts';
import type { X402WalletSigner } from './api/x402-request.ts';

export interface TokenBalance {
  units: bigint;
  decimals: number;
  symbol: string;
}

/**
 * The wallet's balance of the token the 402 names, read from that chain's RPC (the dashboard's configured transport,
 * not the service): what the person holds is the chain's word, not ours.
 */
// The three ERC-20 reads, written out: importing viem's whole `erc20Abi` module pulls all of viem into one chunk
// that the wallet island then loads.
const erc20Reads = [
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'account', type: 'address' }], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint8' }] },
  { type: 'function', name: 'symbol', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
] as const;

export async function readTokenBalance(chainId: number, token: `0x${string}`, holder: `0x${string}`): Promise<TokenBalance> {
  const [wagmiConfig, { readContract }] = await Promise.all([whenWalletReady(), import('wagmi/actions')]);
  const read = <T>(functionName: 'balanceOf' | 'decimals' | 'symbol', args?: readonly [`0x${string}`]) =>
    readContract(wagmiConfig, { chainId, address: token, abi: erc20Reads, functionName, args } as Parameters<typeof readContract>[1]) as Promise<T>;
  const [units, decimals, symbol] = await Promise.all([read<bigint>('balanceOf', [holder]), read<number>('decimals'), read<string>('symbol')]);
  return { units, decimals: Number(decimals), symbol };
}

/** The connected wallet as @x402/evm's client signer: its address, and EIP-712 signatures through wagmi. */
export async function walletSigner(address: `0x${string}`): Promise<X402WalletSigner> {
  const [wagmiConfig, { signTypedData }] = await Promise.all([whenWalletReady(), import('wagmi/actions')]);
  return {
    address,
    signTypedData: (typed) =>
      signTypedData(wagmiConfig, { account: address, ...typed } as Parameters<typeof signTypedData>[1]),
  };
}
