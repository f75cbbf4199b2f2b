import { useEffect } from 'react';
import { useAccount } from 'wagmi';
import { sessionStore } from '@/lib/session/session.ts';
import { useStore } from '@/lib/store.ts';

/** Longest timer a browser honours (about 24.8 days); a session never lives that long, but be safe. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Ends the session when it expires and when the wallet moves to another account. RainbowKit also
 * signs out on a connector 'change'; this catches a switch that happened while the page was closed.
 */
export function SessionWatcher() {
  const { session } = useStore(sessionStore);
  const { address, status } = useAccount();

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
    if (session.address.toLowerCase() !== address.toLowerCase()) sessionStore.end('account-changed');
  }, [session, address, status]);

  return null;
}
