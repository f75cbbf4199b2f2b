import { useQuery } from '@tanstack/react-query';
import { useAccount, useConfig } from 'wagmi';
import { useWalletSessionState } from '@/lib/session/wallet-session.ts';
import { checkNetwork, type NetworkCheck } from '@/lib/session/network.ts';
import { allowedChainsQuery } from './allowed-chains.ts';

/**
 * What stands between a connected wallet and signing in, known before any signature is asked for. While
 * one holds, RainbowKit's sign-in dialog stays closed, so the page's own notice (with the button that fixes
 * it) is what the person sees, not a dialog over it.
 */
// The host mismatch and the last allowed chain live in the wallet session (lib/session/wallet-session.ts).

export function useNetworkCheck(): NetworkCheck {
  const { chainId, isConnected } = useAccount();
  const wagmiConfig = useConfig();
  const allowed = useQuery(allowedChainsQuery);
  const last = useWalletSessionState((s) => s.lastAllowedChain);
  if (!isConnected) return { state: 'unknown' };
  return checkNetwork(chainId, allowed.data, wagmiConfig.chains.map((c) => c.id), last);
}

/** True when signing in cannot work yet: the wallet is on a chain the service refuses, or the page is on another host. */
export function useSignInBlocked(): boolean {
  const network = useNetworkCheck();
  const host = useWalletSessionState((s) => s.hostMismatch);
  return network.state === 'wrong' || host !== undefined;
}
