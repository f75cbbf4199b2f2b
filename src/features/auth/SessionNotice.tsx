import { useConnectModal } from '@rainbow-me/rainbowkit';
import { useEffect, useState } from 'react';
import { Button, Notice, useToast } from '@/ui/index.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { shortAddress } from '@/lib/format.ts';

/**
 * Why the session ended, where the person is: an expired or refused session and an account switch
 * stay on screen with a way to sign in again; sign-out and disconnect are a passing word.
 */
export function SessionNotice() {
  const session = useWalletSession();
  const { ended } = session;
  const { openConnectModal } = useConnectModal();
  const { toast } = useToast();
  const [dismissedAt, setDismissedAt] = useState<number>();

  useEffect(() => {
    if (ended?.reason === 'signed-out') toast({ tone: 'info', title: 'Signed out', description: 'Your wallet stays connected; sign in again any time.' });
    if (ended?.reason === 'disconnected') toast({ tone: 'info', title: 'Wallet disconnected', description: 'You are signed out.' });
  }, [ended, toast]);

  if (!ended || session.status === 'signed-in' || dismissedAt === ended.at) return null;
  const copy = {
    expired: { title: 'Your session expired', body: 'Sign in again to continue where you were.' },
    'rejected-by-service': { title: 'Your session has ended', body: 'The service no longer accepts your sign-in. Sign in again to continue where you were.' },
    'account-changed': {
      title: 'You switched accounts',
      body: session.address ? `Sign in as ${shortAddress(session.address)} to continue.` : 'Sign in with the new account to continue.',
    },
    'delegation-changed': {
      title: 'You changed the account you act for',
      body: session.delegated && session.address
        ? `A session belongs to one account: sign in again to act for ${shortAddress(session.address)}.`
        : 'A session belongs to one account: sign in again to act as your wallet.',
    },
  } as const;
  if (!(ended.reason in copy)) return null;
  const { title, body } = copy[ended.reason as keyof typeof copy];
  return (
    <Notice
      tone="warning"
      title={title}
      actions={
        <>
          {session.status === 'connected' && openConnectModal ? (
            <Button size="sm" onClick={openConnectModal}>
              Sign in again
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" onClick={() => setDismissedAt(ended.at)}>
            Dismiss
          </Button>
        </>
      }
    >
      {session.status === 'disconnected' ? 'Connect your wallet and sign in to continue.' : body}
    </Notice>
  );
}
