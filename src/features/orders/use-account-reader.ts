import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';

/** Whose account data is read and whether a credential to read it is there (SIWE session or API key). */
export function useAccountReader(): { account: `0x${string}` | undefined; canRead: boolean } {
  const session = useWalletSession();
  const settings = useSettings();
  return { account: session.address, canRead: session.status === 'signed-in' || !!settings.apiKey };
}
