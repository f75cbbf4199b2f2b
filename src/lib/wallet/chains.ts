import { defineChain, custom, http, type Chain, type Transport } from 'viem';
import { base, mainnet, robinhoodTestnet, sepolia } from 'viem/chains';
import type { DashboardConfig } from '../config.ts';

const localChain = defineChain({
  id: 31337,
  name: 'Local chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
  testnet: true,
});

/** Chains the dashboard offers; the service's /siwe/allowed-chains decides which can sign in. */
export function dashboardChains(cfg: Pick<DashboardConfig, 'includeLocalChain'>): [Chain, ...Chain[]] {
  const chains: Chain[] = [sepolia, robinhoodTestnet, mainnet, base];
  if (cfg.includeLocalChain) chains.unshift(localChain);
  return chains as [Chain, ...Chain[]];
}

/**
 * Each chain talks only to the RPC URL configuration gives it. Without one, a chain's transport fails
 * at once instead of falling back to viem's public RPC (an internet host): the ENS lookup RainbowKit
 * makes after connecting then quietly finds no name.
 */
export function chainTransports(chains: readonly Chain[], rpcUrls: Record<number, string | undefined>): Record<number, Transport> {
  return Object.fromEntries(
    chains.map((chain) => {
      const url = rpcUrls[chain.id];
      const transport = url
        ? http(url, { retryCount: 0 })
        : custom({
            request: async () => {
              throw new Error(`No RPC URL is configured for chain ${chain.id} (set VITE_RPC_${chain.id})`);
            },
          }, { retryCount: 0 });
      return [chain.id, transport];
    }),
  );
}

export function chainName(chainId: number | undefined, chains: readonly Chain[]): string {
  return chains.find((c) => c.id === chainId)?.name ?? `chain ${chainId}`;
}
