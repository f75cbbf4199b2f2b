import '@rainbow-me/rainbowkit/styles.css';
import { RainbowKitAuthenticationProvider, RainbowKitProvider, darkTheme, lightTheme, type AuthenticationStatus } from '@rainbow-me/rainbowkit';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useMemo } from 'react';
import { createPortal } from 'react-dom';
import { useAccount, WagmiProvider } from 'wagmi';
import { useStore } from 'zustand';
import { config } from '@/lib/config.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { DelegatedSignerRefusedError } from '@/lib/session/acting.ts';
import { SiweMessageMismatchError } from '@/lib/session/siwe-message.ts';
import { fittingSession, useWalletSessionState, walletSession } from '@/lib/session/wallet-session.ts';
import { settingsStore, useSettings } from '@/lib/settings/settings-store.ts';
import { isUserRejection } from '@/lib/signing/errors.ts';
import { createWagmiConfig } from '@/lib/wallet/wagmi-config.ts';
import { walletSlots } from '@/lib/wallet/slots.ts';
import { useTheme, useToast } from '@/ui/index.ts';
import { ChainGuard } from './ChainGuard.tsx';
import { HostMismatchNotice } from './HostMismatchNotice.tsx';
import { SessionControls } from './SessionControls.tsx';
import { SessionNotice } from './SessionNotice.tsx';
import { SignInFreeNote } from './SignInFreeNote.tsx';
import { useSignInBlocked } from './sign-in-blocks.ts';
import { createSiweAdapter } from './siwe-adapter.ts';
import { WalletSessionBridge } from './WalletSessionBridge.tsx';

const wagmiConfig = createWagmiConfig(config);

// A darker accent than RainbowKit's default passes the colour-contrast check in both themes.
const themes = {
  light: lightTheme({ accentColor: '#1d4ed8', borderRadius: 'medium' }),
  dark: darkTheme({ accentColor: '#93c5fd', accentColorForeground: '#0f172a', borderRadius: 'medium' }),
};

/** The host a SIWE message must name: configured, or this page's own host. */
function expectedSiweDomain(): string {
  return config.siweDomain ?? window.location.host;
}

/** What RainbowKit shows: the account button, the sign-in step, or nothing while signing in cannot work yet. */
function useAuthenticationStatus(): AuthenticationStatus {
  const { address, status } = useAccount();
  const session = useWalletSessionState((s) => s.session);
  const { delegated } = useSettings();
  const blocked = useSignInBlocked();
  if (status === 'reconnecting' || status === 'connecting') return session ? 'loading' : 'unauthenticated';
  if (fittingSession({ account: { status, address }, session }, { delegated }, Date.now())) return 'authenticated';
  // RainbowKit shows no sign-in dialog while 'loading': the page's notice says what to fix, uncovered.
  return blocked ? 'loading' : 'unauthenticated';
}

/** Everything inside the island that follows the shell (theme, slots, toasts) re-renders here, below WagmiProvider. */
function IslandContent() {
  const slots = useStore(walletSlots);
  const { theme } = useTheme();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const status = useAuthenticationStatus();
  const adapter = useMemo(
    () =>
      createSiweAdapter({
        wagmiConfig,
        queryClient,
        store: walletSession,
        apiBaseUrl: config.apiBaseUrl,
        expectedDomain: expectedSiweDomain,
        delegated: () => settingsStore.getState().delegated,
        onError: (error) => {
          // Said once, in the page's notice with the address to open, instead of a toast.
          if (error instanceof SiweMessageMismatchError && error.serviceDomain && error.problems.length === 1) {
            walletSession.setState({ hostMismatch: error.serviceDomain });
            return;
          }
          // A declined signature is said once, by WalletSessionBridge.
          if (isUserRejection(error)) return;
          const { title, description } = error instanceof DelegatedSignerRefusedError ? error.explanation : explainError(error);
          toast({ tone: 'error', title, description });
        },
      }),
    [queryClient, toast],
  );
  return (
    <RainbowKitAuthenticationProvider adapter={adapter} status={status}>
      <RainbowKitProvider theme={themes[theme]} modalSize="compact" appInfo={{ appName: config.appName }}>
        <WalletSessionBridge />
        <SignInFreeNote signedIn={status === 'authenticated'} />
        {slots.header ? createPortal(<SessionControls />, slots.header) : null}
        {slots.notices
          ? createPortal(
              <>
                <ChainGuard />
                <HostMismatchNotice />
                <SessionNotice />
              </>,
              slots.notices,
            )
          : null}
      </RainbowKitProvider>
    </RainbowKitAuthenticationProvider>
  );
}

/**
 * The wallet island: wagmi, RainbowKit with the SIWE adapter, and the bridge to the wallet session, loaded on
 * demand (see lib/session/wallet-session.ts). It renders into the shell's header and notice slots through portals,
 * inside the shell's query client, router, theme and toasts. WagmiProvider must never re-render: with
 * reconnectOnMount={false} its Hydrate step clears the live connections on every render. Hence memo() and no props.
 */
function WalletLayer() {
  return (
    // Reconnection at start-up is ours (WalletSessionBridge): wagmi's own would load every wallet SDK.
    <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
      <IslandContent />
    </WagmiProvider>
  );
}

export default memo(WalletLayer);
