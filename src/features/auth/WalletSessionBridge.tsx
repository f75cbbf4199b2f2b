import { useConnectModal } from '@rainbow-me/rainbowkit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAccount, useConfig } from 'wagmi';
import { reconnect } from 'wagmi/actions';
import { useToast } from '@/ui/index.ts';
import { sessionMisfit } from '@/lib/session/acting.ts';
import { endSession, useWalletSessionState, walletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { isUserRejection } from '@/lib/signing/errors.ts';
import { isLightConnector } from '@/lib/wallet/lazy-wallet.ts';
import { allowedChainsQuery } from './allowed-chains.ts';

/** Longest timer a browser honours (about 24.8 days); a session never lives that long, but be safe. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Where the wallet island meets the wallet session (lib/session/wallet-session.ts), both ways:
 * - start-up reconnection that never loads a wallet SDK (only injected wallets, plus the wallet used last);
 * - wagmi's account, the allowed chains, RainbowKit's modal state and the island's readiness go into the store;
 * - a pending sign-in request opens RainbowKit's modal as soon as RainbowKit can;
 * - the session ends when it expires, when the wallet moves to another account, and when the account it acts for
 *   changes in Settings (a session belongs to one account); RainbowKit also signs out on a connector 'change', this
 *   catches a switch that happened while the page was closed;
 * - a declined sign-in signature gets one calm word instead of silence.
 */
export function WalletSessionBridge() {
  const wagmiConfig = useConfig();
  const { status, address, chainId } = useAccount();
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const allowed = useQuery(allowedChainsQuery);
  const { delegated } = useSettings();
  const session = useWalletSessionState((s) => s.session);
  const pending = useWalletSessionState((s) => s.signInPending);
  const reconnected = useWalletSessionState((s) => s.reconnected);
  const queryClient = useQueryClient();
  const { toast } = useToast();

  useEffect(() => {
    void (async () => {
      const recent = await wagmiConfig.storage?.getItem('recentConnectorId');
      const connectors = wagmiConfig.connectors.filter((c) => isLightConnector(c) || c.id === recent);
      await reconnect(wagmiConfig, { connectors }).catch(() => []);
      walletSession.setState({ reconnected: true });
    })();
  }, [wagmiConfig]);

  useEffect(() => walletSession.setState({ account: { status, address, chainId } }), [status, address, chainId]);
  useEffect(() => () => walletSession.setState({ account: { status: 'disconnected' } }), []);
  useEffect(() => walletSession.setState({ allowedChains: allowed.data }), [allowed.data]);
  useEffect(() => walletSession.setState({ modalOpen: connectModalOpen }), [connectModalOpen]);
  useEffect(() => walletSession.setState({ wagmiConfig }), [wagmiConfig]);

  useEffect(() => {
    if (!pending || !reconnected) return;
    if (connectModalOpen) {
      walletSession.setState({ signInPending: false });
      return;
    }
    if (!openConnectModal) return;
    // RainbowKit closes its modals in its own mount effects, which run after ours: open on the next tick.
    const timer = setTimeout(() => {
      walletSession.setState({ signInPending: false });
      openConnectModal();
    }, 0);
    return () => clearTimeout(timer);
  }, [pending, reconnected, openConnectModal, connectModalOpen]);

  useEffect(() => {
    if (!session) return;
    const remaining = session.expiresAt - Date.now();
    if (remaining <= 0) {
      endSession('expired');
      return;
    }
    const timer = setTimeout(() => endSession('expired'), Math.min(remaining, MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [session]);

  useEffect(() => {
    if (!session || status !== 'connected' || !address) return;
    // The signer (the connected wallet) is compared, not the session's account, which may be a delegated one.
    const misfit = sessionMisfit(session, address, delegated);
    if (misfit) endSession(misfit);
  }, [session, address, status, delegated]);

  // One word per declined signature, however often the cache reports the same failed mutation.
  const said = useRef(new Set<number>());
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'error') return;
        if (event.mutation.options.mutationKey?.[0] !== 'signMessage') return;
        if (!isUserRejection(event.action.error)) return;
        if (said.current.has(event.mutation.mutationId)) return;
        said.current.add(event.mutation.mutationId);
        toast({
          tone: 'info',
          title: 'Sign-in cancelled',
          description: 'You declined the signature, so you are not signed in and nothing was sent. Sign message asks again.',
        });
      }),
    [queryClient, toast],
  );
  return null;
}
