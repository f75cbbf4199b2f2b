import { useQuery } from '@tanstack/react-query';
import { useAccount, useConfig } from 'wagmi';
import { createStore, useStore } from '@/lib/store.ts';
import { checkNetwork, type NetworkCheck } from './model/network.ts';
import { allowedChainsQuery } from './allowed-chains.ts';

/**
 * What stands between a connected wallet and signing in, known before any signature is asked for. While
 * one holds, RainbowKit's sign-in dialog stays closed, so the page's own notice (with the button that fixes
 * it) is what the person sees, not a dialog over it.
 */

/** The host the service signs in for, when it is not this page's (set when a prepared message says so). */
export const hostMismatch = createStore<string | undefined>(undefined);

/** The allowed chain the wallet was on last: where to ask it to go back to. */
export const lastAllowedChain = createStore<number | undefined>(undefined);

export function useNetworkCheck(): NetworkCheck {
  const { chainId, isConnected } = useAccount();
  const wagmiConfig = useConfig();
  const allowed = useQuery(allowedChainsQuery);
  const last = useStore(lastAllowedChain);
  if (!isConnected) return { state: 'unknown' };
  return checkNetwork(chainId, allowed.data, wagmiConfig.chains.map((c) => c.id), last);
}

/** True when signing in cannot work yet: the wallet is on a chain the service refuses, or the page is on another host. */
export function useSignInBlocked(): boolean {
  const network = useNetworkCheck();
  const host = useStore(hostMismatch);
  return network.state === 'wrong' || host !== undefined;
}
