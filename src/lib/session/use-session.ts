import { useCallback } from 'react';
import { useStore } from '../store.ts';
import { accountStore, wantWallet } from '../wallet/wallet-runtime.ts';
import { authModalOpen, sessionStore, requestSignIn } from './session.ts';

export type SessionStatus = 'disconnected' | 'connected' | 'signed-in';

export interface SessionView {
  status: SessionStatus;
  address?: `0x${string}`;
  chainId?: number;
  token?: string;
  expiresAt?: number;
}

export function useSession(): SessionView {
  const { address, chainId } = useStore(accountStore);
  const { session } = useStore(sessionStore);
  if (!address) return { status: 'disconnected' };
  if (session && session.address.toLowerCase() === address.toLowerCase() && session.expiresAt > Date.now()) {
    return { status: 'signed-in', address, chainId, token: session.token, expiresAt: session.expiresAt };
  }
  return { status: 'connected', address, chainId };
}

/** Opens connect/sign-in when needed; resolves true once signed in, false if the person walks away. */
export function useRequireSignIn(): () => Promise<boolean> {
  return useCallback(() => {
    if (isSignedIn()) return Promise.resolve(true);
    wantWallet();
    requestSignIn();
    return waitForSignIn();
  }, []);
}

function isSignedIn(): boolean {
  const session = sessionStore.get().session;
  const address = accountStore.get().address;
  return !!session && session.expiresAt > Date.now() && !!address && session.address.toLowerCase() === address.toLowerCase();
}

function waitForSignIn(): Promise<boolean> {
  return new Promise((resolve) => {
    let sawOpen = false;
    const check = () => {
      if (isSignedIn()) return finish(true);
      if (authModalOpen.get()) sawOpen = true;
      else if (sawOpen) finish(false);
    };
    const unsubscribers = [sessionStore.subscribe(check), authModalOpen.subscribe(check), accountStore.subscribe(check)];
    // The modal may never open (no wallet UI at all); give up after five minutes rather than hang.
    const timer = setTimeout(() => finish(false), 5 * 60_000);
    function finish(value: boolean) {
      for (const unsubscribe of unsubscribers) unsubscribe();
      clearTimeout(timer);
      resolve(value);
    }
  });
}
