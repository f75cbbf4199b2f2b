import { createPublicClient, getAddress, http, type PublicClient } from 'viem';
import type { AskAccount } from '#core/eip712/verify-history-entry.ts';
import { config } from '@/lib/config.ts';

/** What an account is on the chain: a contract, an EOA delegating to code (EIP-7702), or nothing yet (ERC-6492). */
export type AccountKind = 'contract' | 'eip7702' | 'undeployed';

/** An EIP-7702 delegation designator: 0xef0100 followed by the delegate's address. */
const EIP7702_PREFIX = '0xef0100';

/**
 * The chain RPC the dashboard is configured with (the signing domain's chain when it names one, else the local
 * chain): asks a contract account about a signature (viem's universal check: ERC-1271, ERC-6492) and what kind of
 * account it is. Null when no RPC is configured: the entry then says it needs one.
 */
export function chainForVerifying(chainId: number | undefined): { ask: AskAccount; kindOf: (address: string) => Promise<AccountKind> } | null {
  const url = (chainId !== undefined ? config.rpcUrls[chainId] : undefined) ?? (config.includeLocalChain ? config.rpcUrls[31337] : undefined) ?? Object.values(config.rpcUrls).find(Boolean);
  if (!url) return null;
  const client: PublicClient = createPublicClient({ transport: http(url) });
  return {
    ask: ({ account, hash, signature }) => client.verifyHash({ address: getAddress(account), hash, signature }),
    async kindOf(address) {
      const code = await client.getCode({ address: getAddress(address) });
      if (!code || code === '0x') return 'undeployed';
      return code.toLowerCase().startsWith(EIP7702_PREFIX) ? 'eip7702' : 'contract';
    },
  };
}
