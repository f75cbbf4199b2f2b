import { ConnectButton } from '@rainbow-me/rainbowkit';
import { Badge, Button } from '@/ui/index.ts';
import { actingLine } from '@/lib/session/acting.ts';
import { endSession, useWalletSession } from '@/lib/session/wallet-session.ts';

/**
 * The header's wallet and session state: connect, sign in, or the signed-in account with its network
 * and a way to sign out (the wallet stays connected; disconnecting lives in RainbowKit's account modal).
 */
export function SessionControls() {
  const session = useWalletSession();
  const line = session.acting ? actingLine(session.acting) : undefined;
  // Who acts for whom, next to the wallet: the wallet's button shows the signer, the session is the account's.
  const acting = line ? <p className="w-full text-right text-xs text-slate-600 dark:text-slate-400">{line}</p> : null;
  return (
    <ConnectButton.Custom>
      {({ account, chain, openAccountModal, openChainModal, openConnectModal, authenticationStatus, mounted }) => {
        // 'loading' with a wallet: signing in waits on the network or the host (see sign-in-blocks.ts).
        const ready = mounted && (authenticationStatus !== 'loading' || !!account);
        if (!ready) {
          return (
            <div aria-hidden="true" className="h-10 w-32 animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800" />
          );
        }
        if (!account || !chain) {
          return <Button onClick={openConnectModal}>Connect wallet</Button>;
        }
        const accountButton = (
          <Button variant="secondary" onClick={openAccountModal} aria-label={`Wallet ${account.displayName}: account details`}>
            {account.displayName}
          </Button>
        );
        if (chain.unsupported) {
          return (
            <div className="flex items-center gap-2">
              <Button variant="danger" onClick={openChainModal}>
                Wrong network
              </Button>
              {accountButton}
            </div>
          );
        }
        if (authenticationStatus !== 'authenticated') {
          return (
            <div className="flex flex-wrap items-center justify-end gap-2">
              <Badge tone="warning" className="max-sm:hidden">Not signed in</Badge>
              {accountButton}
              {openConnectModal ? <Button onClick={openConnectModal}>Sign in</Button> : null}
              {acting}
            </div>
          );
        }
        return (
          <div className="flex flex-wrap items-center justify-end gap-2">
            <Badge tone="success">Signed in</Badge>
            <Button variant="ghost" onClick={openChainModal} className="max-sm:hidden" aria-label={`Network: ${chain.name ?? chain.id}. Change network`}>
              {chain.name ?? `Chain ${chain.id}`}
            </Button>
            {accountButton}
            {/* On a phone, Sign out is in the header's menu so the header keeps to one row. */}
            <Button variant="secondary" className="max-sm:hidden" onClick={() => endSession('signed-out')}>
              Sign out
            </Button>
            {acting}
          </div>
        );
      }}
    </ConnectButton.Custom>
  );
}
