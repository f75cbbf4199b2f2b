import { createPublicClient, getAddress, http } from 'viem';
import type { AskAccount } from '@/core/eip712/verify-history-entry.ts';
import { config } from '@/lib/config.ts';

/**
 * Asks a contract account about a signature through the chain RPC the dashboard is configured with (the signing
 * domain's chain when it names one, else the local chain): viem's universal check, ERC-1271 and ERC-6492. Undefined
 * when no RPC is configured for any chain: the entry then says it needs one.
 */
export function askAccountThroughRpc(chainId: number | undefined): AskAccount | undefined {
  const url = (chainId !== undefined ? config.rpcUrls[chainId] : undefined) ?? (config.includeLocalChain ? config.rpcUrls[31337] : undefined) ?? Object.values(config.rpcUrls).find(Boolean);
  if (!url) return undefined;
  const client = createPublicClient({ transport: http(url) });
  return ({ account, hash, signature }) => client.verifyHash({ address: getAddress(account), hash, signature });
}
