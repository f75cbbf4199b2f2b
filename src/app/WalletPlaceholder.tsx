import { requestSignIn } from '@/lib/session/wallet-session.ts';
import { Button, useHydrated } from '@/ui/index.ts';

/**
 * The header's wallet control before the wallet island is loaded: the same "Connect wallet" a person
 * expects (pressing it loads the island, which then opens RainbowKit's modal), or a quiet placeholder
 * while a returning visitor's wallet is being restored. In the pre-rendered page it stays disabled until React has
 * hydrated it: a press before then would reach no handler and be lost.
 */
export function WalletPlaceholder({ loading }: { loading: boolean }) {
  const live = useHydrated();
  if (loading) return <div aria-hidden="true" className="h-10 w-32 animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800" />;
  return (
    <Button disabled={!live} onClick={() => void requestSignIn()}>
      Connect wallet
    </Button>
  );
}
