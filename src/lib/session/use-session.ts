import { useCallback } from 'react';
import { useStore } from '../store.ts';
import { settingsStore } from '../settings/settings-store.ts';
import type { DelegatedAccount } from '../settings/settings-store.ts';
import { accountStore, wantWallet } from '../wallet/wallet-runtime.ts';
import { actingFor, actingLine, sessionFits, signingForLine, type Acting } from './acting.ts';
import { authModalOpen, sessionStore, requestSignIn } from './session.ts';

export type SessionStatus = 'disconnected' | 'connected' | 'signed-in';

export interface SessionView {
  status: SessionStatus;
  /** Whom the dashboard acts as: the session's account (a delegated account, or the wallet itself). */
  address?: `0x${string}`;
  /** The connected wallet, which signs. Differs from `address` only while acting for a delegated account. */
  signer?: `0x${string}`;
  /** The delegated account the wallet acts for, if any. */
  delegated?: DelegatedAccount;
  chainId?: number;
  token?: string;
  expiresAt?: number;
}

export function useSession(): SessionView {
  const { address: wallet, chainId } = useStore(accountStore);
  const { session } = useStore(sessionStore);
  const { delegated } = useStore(settingsStore);
  if (!wallet) return { status: 'disconnected' };
  const acting = actingFor(wallet, delegated);
  const who = { address: acting.account, signer: acting.signer, delegated: acting.delegated, chainId };
  if (session && sessionFits(session, wallet, delegated) && session.expiresAt > Date.now()) {
    return { status: 'signed-in', ...who, token: session.token, expiresAt: session.expiresAt };
  }
  return { status: 'connected', ...who };
}

/** Who signs for whom right now, or undefined without a wallet. */
export function useActing(): Acting | undefined {
  const { address: wallet } = useStore(accountStore);
  const { delegated } = useStore(settingsStore);
  return wallet ? actingFor(wallet, delegated) : undefined;
}

/** "Acting for … · signer …" while the wallet signs for a delegated account. */
export function useActingLine(): string | undefined {
  const acting = useActing();
  return acting ? actingLine(acting) : undefined;
}

/** A line for the notice shown before the wallet opens, while it signs for a delegated account. */
export function useSigningForLine(): string | undefined {
  const acting = useActing();
  return acting ? signingForLine(acting) : undefined;
}

/** Who signs for whom at this moment, outside React (signing code). */
export function currentActing(): Acting | undefined {
  const wallet = accountStore.get().address;
  return wallet ? actingFor(wallet, settingsStore.get().delegated) : undefined;
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
  return !!session && session.expiresAt > Date.now() && sessionFits(session, accountStore.get().address, settingsStore.get().delegated);
}

function waitForSignIn(): Promise<boolean> {
  return new Promise((resolve) => {
    let sawOpen = false;
    const check = () => {
      if (isSignedIn()) return finish(true);
      if (authModalOpen.get()) sawOpen = true;
      else if (sawOpen) finish(false);
    };
    const unsubscribers = [sessionStore.subscribe(check), authModalOpen.subscribe(check), accountStore.subscribe(check), settingsStore.subscribe(check)];
    // The modal may never open (no wallet UI at all); give up after five minutes rather than hang.
    const timer = setTimeout(() => finish(false), 5 * 60_000);
    function finish(value: boolean) {
      for (const unsubscribe of unsubscribers) unsubscribe();
      clearTimeout(timer);
      resolve(value);
    }
  });
}
