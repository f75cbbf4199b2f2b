import { walletSession } from '@/lib/session/wallet-session.ts';
import { startingTheme } from '@/ui/index.ts';

/** The one page the build pre-renders: the home page as a first visit sees it (no wallet remembered, light theme). */
export const PRERENDERED_PATH = '/';

/**
 * Whether this visit renders what the build pre-rendered: then the page hydrates that markup and its first paint
 * stays. Anything else (another address, a search in the URL, a remembered wallet, a dark theme) renders afresh.
 */
export function visitMatchesPrerender(): boolean {
  const { islandWanted, session } = walletSession.getState();
  return location.pathname === PRERENDERED_PATH && location.search === '' && !islandWanted && !session && startingTheme() === 'light';
}
