import { whenWalletReady } from '@/lib/wallet/wallet-runtime.ts';
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
export async function readTokenBalance(chainId: number, token: `0x${string}`, holder: `0x${string}`): Promise<TokenBalance> {
  const [wagmiConfig, { readContract }, { erc20Abi }] = await Promise.all([whenWalletReady(), import('wagmi/actions'), import('viem')]);
  const read = <T>(functionName: 'balanceOf' | 'decimals' | 'symbol', args?: readonly [`0x${string}`]) =>
    readContract(wagmiConfig, { chainId, address: token, abi: erc20Abi, functionName, args } as Parameters<typeof readContract>[1]) as Promise<T>;
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
