import { createStore } from '../store.ts';
import { readStored, writeStored, STORAGE_KEYS } from '../settings/storage.ts';

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

export interface SessionState {
  session?: StoredSession;
  /** Why the last session ended, for a calm explanation; cleared on the next sign-in. */
  ended?: { reason: SessionEndReason; at: number };
}

export function isSessionUsable(session: StoredSession | undefined, apiBaseUrl: string, now = Date.now()): session is StoredSession {
  return !!session && session.apiBaseUrl === apiBaseUrl && session.expiresAt > now && typeof session.token === 'string';
}

export function loadSession(apiBaseUrl: string, now = Date.now()): StoredSession | undefined {
  const stored = readStored<StoredSession>(STORAGE_KEYS.session);
  return isSessionUsable(stored, apiBaseUrl, now) ? stored : undefined;
}

export function createSessionStore(apiBaseUrl: string) {
  const store = createStore<SessionState>({ session: loadSession(apiBaseUrl) });
  return {
    ...store,
    start(session: StoredSession) {
      writeStored(STORAGE_KEYS.session, session);
      store.set({ session });
    },
    end(reason: SessionEndReason) {
      if (!store.get().session) return;
      writeStored(STORAGE_KEYS.session, undefined);
      store.set({ session: undefined, ended: { reason, at: Date.now() } });
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;
