import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/api/use-api.ts';
import { formatUsdCents } from '@/lib/format.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { Badge } from '@/ui/index.ts';
import { balanceQuery } from './api/get-balance.ts';

/** The credit balance in the header while signed in. */
export default function BalanceBadge() {
  const api = useApi();
  const session = useWalletSession();
  const signedIn = session.status === 'signed-in';
  const balance = useQuery(balanceQuery(api, session.address, signedIn));
  if (!signedIn) return null;
  const text = balance.data ? formatUsdCents(balance.data.totalBalanceInUsdCents) : balance.isError ? 'unavailable' : '…';
  return (
    <span aria-live="polite" title="Credit balance (1 credit = 1 USD)">
      <Badge tone="info">
        <span className="sr-only">Balance: </span>
        {text}
      </Badge>
    </span>
  );
}
