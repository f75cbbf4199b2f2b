import { RainbowKitAuthenticationProvider, RainbowKitProvider, darkTheme, lightTheme, type AuthenticationStatus } from '@rainbow-me/rainbowkit';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { useAccount, useConfig } from 'wagmi';
import { useToast } from '@/ui/index.ts';
import { config } from '@/lib/config.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { DelegatedSignerRefusedError, sessionFits } from '@/lib/session/acting.ts';
import { useWalletSessionState, walletSession } from '@/lib/session/wallet-session.ts';
import { settingsStore, useSettings } from '@/lib/settings/settings-store.ts';
import { createSiweAdapter } from './siwe-adapter.ts';
import { SignInFreeNote } from './SignInFreeNote.tsx';
import { useSignInBlocked } from './sign-in-blocks.ts';
import { WalletSessionBridge } from './WalletSessionBridge.tsx';
import { SiweMessageMismatchError } from '@/lib/session/siwe-message.ts';
import { isUserRejection } from '@/lib/signing/errors.ts';

// A darker accent than RainbowKit's default passes the colour-contrast check in both themes.
const themes = {
  light: lightTheme({ accentColor: '#1d4ed8', borderRadius: 'medium' }),
  dark: darkTheme({ accentColor: '#93c5fd', accentColorForeground: '#0f172a', borderRadius: 'medium' }),
};

/** The host a SIWE message must name: configured, or this page's own host. */
export function expectedSiweDomain(): string {
  return config.siweDomain ?? window.location.host;
}

function useAuthenticationStatus(): AuthenticationStatus {
  const { address, status } = useAccount();
  const session = useWalletSessionState((s) => s.session);
  const { delegated } = useSettings();
  const blocked = useSignInBlocked();
  if (status === 'reconnecting' || status === 'connecting') return session ? 'loading' : 'unauthenticated';
  if (session && sessionFits(session, address, delegated) && session.expiresAt > Date.now()) {
    return 'authenticated';
  }
  // RainbowKit shows no sign-in dialog while 'loading': the page's notice says what to fix, uncovered.
  return blocked ? 'loading' : 'unauthenticated';
}

export function AuthProvider({ theme, children }: { theme: 'light' | 'dark'; children: ReactNode }) {
  const wagmiConfig = useConfig();
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
    [wagmiConfig, queryClient, toast],
  );
  return (
    <RainbowKitAuthenticationProvider adapter={adapter} status={status}>
      <RainbowKitProvider theme={themes[theme]} modalSize="compact" appInfo={{ appName: config.appName }}>
        <WalletSessionBridge />
        <SignInFreeNote signedIn={status === 'authenticated'} />
        {children}
      </RainbowKitProvider>
    </RainbowKitAuthenticationProvider>
  );
}
