import type { Config } from 'wagmi';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { browserStorage } from '../browser-storage.ts';
import { config } from '../config.ts';
import { readStored, writeStored, STORAGE_KEYS } from '../settings/storage.ts';
import { settingsStore, type DelegatedAccount } from '../settings/settings-store.ts';
import { actingFor, sessionFits, type Acting } from './acting.ts';
import { checkNetwork } from './network.ts';

/**
 * The wallet session of this tab, in one store: the wallet account (mirrored from wagmi by the island's
 * WalletSessionBridge), the SIWE session and why the last one ended, whether the wallet island is wanted and
 * ready, a pending sign-in request and RainbowKit's modal. Code outside the island reads it through
 * useWalletSession() and signs in with requestSignIn(); the island (src/features/auth) writes it.
 *
 * The wallet stack (wagmi, RainbowKit, viem's clients, the wallet SDKs) is an island loaded on demand: when a
 * person asks to connect or sign, or at start for a returning visitor (a remembered wallet or session). The first
 * page of a new visitor never loads it.
 */

interface WalletAccount {
  status: 'disconnected' | 'connecting' | 'reconnecting' | 'connected';
  address?: `0x${string}`;
  chainId?: number;
}

export interface StoredSession {
  /** Whom the session acts as: the wallet, or the delegated account it signed in for. */
  address: `0x${string}`;
  /** The wallet that signed the sign-in message, when it signed in for a delegated account. */
  signer?: `0x${string}`;
  chainId: number;
  token: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** The service that issued the token: a token is worthless anywhere else. */
  apiBaseUrl: string;
}

export type SessionEndReason = 'expired' | 'signed-out' | 'disconnected' | 'account-changed' | 'delegation-changed' | 'rejected-by-service';

export interface WalletSessionState {
  /** wagmi's account; disconnected until the island mirrors it. */
  account: WalletAccount;
  session?: StoredSession;
  /** Why the last session ended, for a calm explanation; cleared on the next sign-in. */
  ended?: { reason: SessionEndReason; at: number };
  /** Set once something needs the wallet: the shell then loads the island. */
  islandWanted: boolean;
  /** The island's wagmi config, once it is mounted. */
  wagmiConfig?: Config;
  /** A sign-in asked for outside the island, waiting for the island to open RainbowKit's modal. */
  signInPending: boolean;
  /** Whether RainbowKit's connect/sign-in modal is open. */
  modalOpen: boolean;
  /** The start-up reconnection has finished: a modal opened before it would be closed again by RainbowKit. */
  reconnected: boolean;
  /** The host the service signs in for, when it is not this page's (a prepared message said so). */
  hostMismatch?: string;
  /** The allowed chain the wallet was on last: where to ask it to go back to. */
  lastAllowedChain?: number;
  /** The chains the service accepts for sign-in, once known. */
  allowedChains?: readonly number[];
  startSession(session: StoredSession): void;
  endSession(reason: SessionEndReason): void;
}
export type WalletSessionStore = StoreApi<WalletSessionState>;

export type WalletPhase = 'disconnected' | 'connected' | 'wrong-network' | 'signing-in' | 'signed-in' | 'expired';

function isSessionUsable(session: StoredSession | undefined, apiBaseUrl: string, now = Date.now()): session is StoredSession {
  return !!session && session.apiBaseUrl === apiBaseUrl && session.expiresAt > now && typeof session.token === 'string';
}

export function loadSession(apiBaseUrl: string, now = Date.now()): StoredSession | undefined {
  const stored = readStored<StoredSession>(STORAGE_KEYS.session);
  return isSessionUsable(stored, apiBaseUrl, now) ? stored : undefined;
}

/** The session when it is live and belongs to the connected wallet and the account it acts for. */
export function fittingSession(
  state: Pick<WalletSessionState, 'account' | 'session'>,
  settings: { delegated?: DelegatedAccount },
  now: number,
): StoredSession | undefined {
  const { session } = state;
  return session && session.expiresAt > now && sessionFits(session, state.account.address, settings.delegated) ? session : undefined;
}

/**
 * Where the person stands, in one word. A live session that fits wins (a signed-in person who moves the wallet
 * to another network chose to); a wallet on a chain the service refuses cannot sign in; a request or an open
 * modal is a sign-in under way; an ended or stale session by time is expired; otherwise connected.
 */
export function phaseOf(
  state: Pick<WalletSessionState, 'account' | 'session' | 'ended' | 'signInPending' | 'modalOpen' | 'allowedChains'>,
  settings: { delegated?: DelegatedAccount },
  now: number,
): WalletPhase {
  const { chainId, address } = state.account;
  if (!address) return 'disconnected';
  if (fittingSession(state, settings, now)) return 'signed-in';
  if (checkNetwork(chainId, state.allowedChains, []).state === 'wrong') return 'wrong-network';
  if (state.signInPending || state.modalOpen) return 'signing-in';
  if ((state.session && state.session.expiresAt <= now) || state.ended?.reason === 'expired') return 'expired';
  return 'connected';
}

/** wagmi keeps its state under this storage key prefix (see lib/wallet/wagmi-config.ts). */
const WAGMI_STORAGE_KEY = 'namefi.wagmi';

function returningVisitor(): boolean {
  // In a frame the host may be Safe{Wallet}: the island loads at once, so the Safe connects without a click.
  if (typeof window !== 'undefined' && window.parent !== window) return true;
  const storage = browserStorage();
  if (!storage) return false;
  try {
    if (storage.getItem(`${WAGMI_STORAGE_KEY}.recentConnectorId`)) return true;
  } catch {
    return false;
  }
  return readStored(STORAGE_KEYS.session) !== undefined;
}

/** A store bound to one service: the session is kept in localStorage under the same key and shape as ever. */
export function createWalletSessionStore(apiBaseUrl: string): WalletSessionStore {
  return createStore<WalletSessionState>()((set, get) => ({
    account: { status: 'disconnected' },
    session: loadSession(apiBaseUrl),
    islandWanted: returningVisitor(),
    signInPending: false,
    modalOpen: false,
    reconnected: false,
    startSession(session) {
      writeStored(STORAGE_KEYS.session, session);
      set({ session, ended: undefined });
    },
    endSession(reason) {
      if (!get().session) return;
      writeStored(STORAGE_KEYS.session, undefined);
      set({ session: undefined, ended: { reason, at: Date.now() } });
    },
  }));
}

/** The one wallet session of this tab, bound to the configured service. */
export const walletSession = createWalletSessionStore(config.apiBaseUrl);

export function endSession(reason: SessionEndReason): void {
  walletSession.getState().endSession(reason);
}

function wantWallet(): void {
  if (!walletSession.getState().islandWanted) walletSession.setState({ islandWanted: true });
}

/** Loads the island if needed and resolves with its wagmi config once it is mounted. */
export function whenWalletReady(): Promise<Config> {
  wantWallet();
  const ready = walletSession.getState().wagmiConfig;
  if (ready) return Promise.resolve(ready);
  return new Promise((resolve) => {
    const unsubscribe = walletSession.subscribe(({ wagmiConfig }) => {
      if (!wagmiConfig) return;
      unsubscribe();
      resolve(wagmiConfig);
    });
  });
}

/** The person closed RainbowKit's modal (or never got one) without signing in. */
export class SignInCancelledError extends Error {
  constructor() {
    super('Not signed in: the sign-in window closed before a session started');
    this.name = 'SignInCancelledError';
  }
}

/** The modal may never open (no wallet UI at all): give up after five minutes rather than hang. */
const SIGN_IN_WAIT_MS = 5 * 60_000;

/**
 * Resolves with the session at once when one fits the wallet; otherwise loads the island, asks it to open
 * RainbowKit's modal, and resolves once signed in. Rejects with SignInCancelledError when the modal closes
 * first. A button that only opens sign-in may ignore the promise: a cancel is not reported as unhandled.
 */
export function requestSignIn(): Promise<StoredSession> {
  const fitting = fittingSession(walletSession.getState(), settingsStore.getState(), Date.now());
  if (fitting) return Promise.resolve(fitting);
  walletSession.setState({ islandWanted: true, signInPending: true });
  const signedIn = new Promise<StoredSession>((resolve, reject) => {
    let sawOpen = false;
    // The settings need no subscription of their own: a change of delegated account ends the session here too.
    const unsubscribe = walletSession.subscribe((state) => {
      const session = fittingSession(state, settingsStore.getState(), Date.now());
      if (session) return finish(() => resolve(session));
      if (state.modalOpen) sawOpen = true;
      else if (sawOpen) finish(() => reject(new SignInCancelledError()));
    });
    const timer = setTimeout(() => finish(() => reject(new SignInCancelledError())), SIGN_IN_WAIT_MS);
    function finish(settle: () => void) {
      unsubscribe();
      clearTimeout(timer);
      // Answered without the modal (a session that fits arrived first): no modal may open for it later.
      if (walletSession.getState().signInPending) walletSession.setState({ signInPending: false });
      settle();
    }
  });
  signedIn.catch(() => undefined);
  return signedIn;
}

export interface WalletSessionView {
  phase: WalletPhase;
  /** The three states most pages need: no wallet, a wallet without a fitting session, signed in. */
  status: 'disconnected' | 'connected' | 'signed-in';
  /** Whom the dashboard acts as: the session's account (a delegated account, or the wallet itself). */
  address?: `0x${string}`;
  /** The connected wallet, which signs. Differs from `address` only while acting for a delegated account. */
  signer?: `0x${string}`;
  /** The delegated account the wallet acts for, if any. */
  delegated?: DelegatedAccount;
  /** Who signs for whom, with a wallet. */
  acting?: Acting;
  chainId?: number;
  token?: string;
  expiresAt?: number;
  ended?: WalletSessionState['ended'];
  requestSignIn: typeof requestSignIn;
}

/** The wallet session as every feature reads it. */
export function useWalletSession(): WalletSessionView {
  const state = useStore(walletSession);
  const settings = useStore(settingsStore);
  const now = Date.now();
  const phase = phaseOf(state, settings, now);
  const base = { phase, ended: state.ended, requestSignIn };
  const wallet = state.account.address;
  if (!wallet) return { ...base, status: 'disconnected' };
  const acting = actingFor(wallet, settings.delegated);
  const who = { address: acting.account, signer: acting.signer, delegated: acting.delegated, acting, chainId: state.account.chainId };
  const session = fittingSession(state, settings, now);
  if (session) return { ...base, status: 'signed-in', ...who, token: session.token, expiresAt: session.expiresAt };
  return { ...base, status: 'connected', ...who };
}

/** One slice of the store, for the island's components that need its inner parts. */
export function useWalletSessionState<T>(select: (state: WalletSessionState) => T): T {
  return useStore(walletSession, select);
}
