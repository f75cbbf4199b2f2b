import { useEffect } from 'react';
import { useAccount } from 'wagmi';
import { sessionMisfit } from '@/lib/session/acting.ts';
import { sessionStore } from '@/lib/session/session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { useStore } from '@/lib/store.ts';

/** Longest timer a browser honours (about 24.8 days); a session never lives that long, but be safe. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Ends the session when it expires, when the wallet moves to another account, and when the account it acts
 * for changes in Settings (a session belongs to one account). RainbowKit also
 * signs out on a connector 'change'; this catches a switch that happened while the page was closed.
 */
export function SessionWatcher() {
  const { session } = useStore(sessionStore);
  const { address, status } = useAccount();
  const { delegated } = useSettings();

  useEffect(() => {
    if (!session) return;
    const remaining = session.expiresAt - Date.now();
    if (remaining <= 0) {
      sessionStore.end('expired');
      return;
    }
    const timer = setTimeout(() => sessionStore.end('expired'), Math.min(remaining, MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [session]);

  useEffect(() => {
    if (!session || status !== 'connected' || !address) return;
    // The signer (the connected wallet) is compared, not the session's account, which may be a delegated one.
    const misfit = sessionMisfit(session, address, delegated);
    if (misfit) sessionStore.end(misfit);
  }, [session, address, status, delegated]);

  return null;
}
