import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { x402Key } from '@/lib/query-keys.ts';
import { Link, useNavigate } from 'react-router';
import { serviceHeaders } from '#core/headers.ts';
import type { X402Purchase, X402PurchaseStatus } from '#core/wire/x402.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { config } from '@/lib/config.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { isUserRejection } from '@/lib/signing/errors.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { requestSignIn, useWalletSession } from '@/lib/session/wallet-session.ts';
import { Button, Notice, Spinner } from '@/ui/index.ts';
import { balanceKey } from '@/features/balance/index.ts';
import { refreshAfterWrite } from '@/lib/freshness/refresh.ts';
import { fetchX402Terms, payWithX402, X402RefusedError, type X402Target } from '../api/x402-request.ts';
import { followDone, x402PurchaseQuery } from '../api/x402-purchase.ts';
import { formatTokenUnits, refusalInWords, signingSentence, tokenShortfall, validUntil } from '../x402-terms.ts';
import { readTokenBalance, walletSigner } from '../x402-wallet.ts';

type Outcome = { kind: 'declined' } | { kind: 'refused'; why: string } | { kind: 'failed'; why: string };

/** The clock moves on while the notice is open: "valid until" follows it, as the signature would. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * "Pay with USDC (x402)": the price in the token from the service's 402, the wallet's token balance from the chain,
 * the transfer in words, one signature, then the purchase followed to its order. Signed in, the SIWE token goes with
 * the payment, so the order is the session's and the order page follows it; signed out, the purchase is followed here.
 */
export function X402Payment({ domain, years, receiver, blockedBy }: {
  domain: string;
  /** Undefined while the chosen years are not valid. */
  years: number | undefined;
  receiver?: string;
  /** Why this purchase cannot be paid with x402 as chosen (said instead of the button). */
  blockedBy?: string;
}) {
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useWalletSession();
  const wallet = session.signer;
  const signedIn = session.status === 'signed-in';
  const now = useNow(1_000);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [purchase, setPurchase] = useState<X402Purchase | null>(null);

  const target: X402Target | undefined = years !== undefined ? { domain, years, receiver: receiver || undefined } : undefined;
  const terms = useQuery({
    queryKey: x402Key('terms', domain, years, target?.receiver ?? null),
    queryFn: ({ signal }) => fetchX402Terms(target as X402Target, signal),
    enabled: !!target && !purchase,
    staleTime: 60_000,
    retry: false,
  });
  // Under the credit balance's key: "Add test credit" (which also grants USDC) refreshes it with the credit.
  const token = useQuery({
    queryKey: [...balanceKey(session.address), 'x402-token', terms.data?.chainId, terms.data?.asset, wallet],
    queryFn: () => readTokenBalance(terms.data!.chainId, terms.data!.asset, wallet!),
    enabled: !!terms.data && !!wallet,
    retry: 1,
  });
  const follow = useQuery(x402PurchaseQuery(api, purchase && !signedIn ? purchase.purchaseId : undefined));

  const pay = useMutation({
    mutationFn: async () => {
      const h = serviceHeaders(config.headerPrefix);
      return payWithX402({
        target: target as X402Target,
        terms: terms.data!,
        signer: await walletSigner(wallet!),
        siweHeaders: signedIn && session.token ? { [h.siweToken]: session.token } : undefined,
      });
    },
    onMutate: () => setOutcome(null),
    onSuccess: (accepted) => {
      // Paid through the x402 rail, not the API client: the purchase's declared facts are refreshed here.
      void refreshAfterWrite(queryClient, 'registerDomainX402', { normalizedDomainName: domain });
      if (signedIn && accepted.orderId) navigate(`/orders/${encodeURIComponent(accepted.orderId)}`);
      else setPurchase(accepted);
    },
    onError: (error) => {
      if (isUserRejection(error)) return setOutcome({ kind: 'declined' });
      // A refusal may mean the balance or the price moved: both are read again.
      void token.refetch();
      void terms.refetch();
      if (error instanceof X402RefusedError) return setOutcome({ kind: 'refused', why: refusalInWords(error.reason, error.message) });
      const explained = explainError(error, { domain });
      setOutcome({ kind: 'failed', why: [explained.title, explained.description].filter(Boolean).join(': ') });
    },
  });

  if (purchase) return <X402Following domain={domain} purchase={purchase} followed={follow.data} error={follow.error} />;

  const heading = <h3 className="font-semibold">Pay with USDC (x402)</h3>;
  if (!wallet) {
    return (
      <div className="space-y-2">
        {heading}
        <p className="text-sm">Paying with USDC needs a wallet that holds it. Signing in is not needed.</p>
        <Button type="button" variant="secondary" onClick={() => void requestSignIn()}>
          Connect a wallet
        </Button>
      </div>
    );
  }
  if (!target) return <div className="space-y-2">{heading}<p className="text-sm">Choose a valid number of years first.</p></div>;
  if (terms.isPending) return <div className="space-y-2">{heading}<Spinner label="Asking the service for the USDC price" /></div>;
  if (terms.isError) {
    const explained = explainError(terms.error, { domain });
    return <div className="space-y-2">{heading}<Notice tone="danger" title="The USDC price is not available">{explained.description ?? explained.title}</Notice></div>;
  }

  const t = terms.data;
  const decimals = token.data?.decimals ?? 6;
  const symbol = token.data?.symbol ?? 'USDC';
  const amount = `${formatTokenUnits(t.amountUnits, decimals)} ${symbol}`;
  const short = token.data ? tokenShortfall(token.data.units, t.amountUnits) : 0n;
  const wrongChain = session.chainId !== undefined && session.chainId !== t.chainId;
  const until = validUntil(now, t.maxTimeoutSeconds);
  const reason =
    blockedBy ??
    (receiver && !signedIn ? 'Another wallet receives the NFT only when you are signed in: the service needs your sign-in to accept that.' : undefined);

  return (
    <div className="space-y-3" aria-label="Pay with USDC (x402)" role="group">
      {heading}
      <dl className="grid grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
        <dt>Amount</dt>
        <dd className="text-right font-semibold" aria-label="Amount in USDC">{amount}</dd>
        <dt>Your {symbol} balance</dt>
        <dd className="text-right" aria-label="Your USDC balance">
          {token.data ? `${formatTokenUnits(token.data.units, decimals)} ${symbol}` : token.isError ? 'Unavailable' : '…'}
        </dd>
      </dl>
      {short > 0n ? (
        <Notice tone="warning" title={`Your wallet needs ${formatTokenUnits(short, decimals)} ${symbol} more`}>
          It holds {formatTokenUnits(token.data!.units, decimals)} {symbol} and this name costs {amount}. Nothing will be signed or paid until it holds enough.
          {config.isLocalService ? ' On the local service, “Add test credit” also grants 100 USDC (it needs you signed in).' : ''}
        </Notice>
      ) : null}
      {token.isError ? <Notice tone="warning" title="Your USDC balance could not be read">{explainError(token.error).description ?? String(token.error)}</Notice> : null}
      {wrongChain ? <Notice tone="warning" title={`Switch your wallet to chain ${t.chainId}`}>The payment is signed for chain {t.chainId}; your wallet is on chain {session.chainId}.</Notice> : null}
      {reason ? <Notice tone="warning" title="Not payable with USDC as chosen">{reason}</Notice> : null}
      {outcome?.kind === 'declined' ? (
        <Notice tone="info" title="Signature declined">Nothing was paid and {domain} is still available. Pay when you are ready.</Notice>
      ) : null}
      {outcome?.kind === 'refused' || outcome?.kind === 'failed' ? (
        <Notice tone="danger" title="The payment was not taken">
          {outcome.why} Nothing was paid and {domain} is still available.
        </Notice>
      ) : null}
      <SigningNotice
        forService={false}
        lines={[
          signingSentence({ terms: t, decimals, symbol, from: wallet, until }),
          `It pays for ${domain}, ${years} year${years === 1 ? '' : 's'}; the service sends the transfer, so you pay no gas`,
        ]}
      />
      <Button type="button" loading={pay.isPending} disabled={short > 0n || wrongChain || !!reason || !token.data} onClick={() => pay.mutate()}>
        Sign and pay {amount}
      </Button>
    </div>
  );
}

function X402Following({ domain, purchase, followed, error }: { domain: string; purchase: X402Purchase; followed: X402PurchaseStatus | undefined; error: Error | null }) {
  const done = followDone(followed);
  const orderStatus = followed?.orderStatus ?? 'PROCESSING';
  return (
    <div className="space-y-2" role="group" aria-label="Your x402 purchase">
      <h3 className="font-semibold">Paid with USDC</h3>
      <p role="status" className="text-sm">
        {!done
          ? `Payment settled; ${domain} is being registered for ${purchase.nftReceivingWalletAddress}.`
          : orderStatus === 'SUCCEEDED'
            ? `${domain} is registered to ${purchase.nftReceivingWalletAddress}.`
            : `The registration of ${domain} did not go through${followed?.failureReason ? `: ${followed.failureReason}` : ''}.${followed?.refund ? ` The payment was refunded (${followed.refund.transaction}).` : ''}`}
      </p>
      {!done ? <Spinner label="Following the purchase" /> : null}
      {error ? <Notice tone="warning" title="The purchase could not be followed just now">{explainError(error).description ?? error.message}</Notice> : null}
      <p className="text-sm">
        Purchase <code className="break-all">{purchase.purchaseId}</code>. Sign in to see it among your orders, or{' '}
        <Link className="underline" to="/domains">open your domains</Link>.
      </p>
    </div>
  );
}
