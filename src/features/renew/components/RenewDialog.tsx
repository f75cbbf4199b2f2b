import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueries } from '@tanstack/react-query';
import { noticeOf } from '#core/operations/index.ts';
import type { RenewalQuote } from '#core/wire/orders.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { SignatureRejectedError } from '@/lib/signing/errors.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Dialog, Notice, Spinner, TextField, useToast } from '@/ui/index.ts';
import { renewalQuoteQuery } from '../api/renewal-quote.ts';
import { useRenewDomain } from '../api/renew-domain.ts';
import { dateInWords, renewalOf, renewFormSchema, usd, years, type RenewForm } from '../model/renew-form.ts';

const isOwner = (quote: RenewalQuote, address: string | undefined) => !!address && quote.ownerAddress.toLowerCase() === address.toLowerCase();

/**
 * Renews one domain or many (the Domains list's selection) for 1 to 10 years: it says each new expiry and the price,
 * and the total, before the wallet opens, then signs one renewal per domain in turn. Anyone may pay (a gift): a name
 * the wallet does not hold says it is renewed for its owner.
 */
export function RenewDialog({ domains, onClose }: { domains: string[]; onClose: () => void }) {
  const api = useApi();
  const session = useWalletSession();
  const { toast } = useToast();
  const renew = useRenewDomain(session.address);
  const answers = useQueries({ queries: domains.map((domain) => renewalQuoteQuery(api, domain)) });
  const quotes = answers.flatMap((a) => (a.data ? [a.data] : []));
  const loading = answers.some((a) => a.isPending);
  const failed = answers.find((a) => a.isError);
  const [progress, setProgress] = useState<{ done: number; declined: boolean; problem: string | null }>({ done: 0, declined: false, problem: null });
  const form = useForm<RenewForm>({ resolver: zodResolver(renewFormSchema(quotes)), mode: 'onChange', defaultValues: { durationInYears: 1 } });
  const n = form.watch('durationInYears');
  const valid = Number.isInteger(n) && !form.formState.errors.durationInYears;
  const single = domains.length === 1 ? quotes[0] : undefined;
  const forOwner = single && !isOwner(single, session.address);
  const total = valid ? quotes.reduce((sum, q) => sum + renewalOf(q, n).cents, 0) : 0;

  async function submit({ durationInYears }: RenewForm) {
    setProgress({ done: 0, declined: false, problem: null });
    // One signature per domain, in turn; the ones already ordered are skipped when the person tries again.
    for (const [index, domain] of domains.entries()) {
      if (index < progress.done) continue;
      try {
        await renew.mutateAsync({ normalizedDomainName: domain, durationInYears });
        setProgress((p) => ({ ...p, done: index + 1 }));
      } catch (error) {
        if (error instanceof SignatureRejectedError) setProgress((p) => ({ ...p, declined: true }));
        else setProgress((p) => ({ ...p, problem: `${domain}: ${explainError(error, { domain, address: session.address }).title}` }));
        return;
      }
    }
    toast({
      tone: 'success',
      title: domains.length === 1 && single ? `Renewal of ${domains[0]} ordered: it will expire on ${renewalOf(single, durationInYears).newExpiry}` : `Renewals of ${domains.length} domains ordered`,
      description: 'The new date shows here once the order completes.',
    });
    onClose();
  }

  const title = domains.length === 1 ? (forOwner ? `Renew ${domains[0]} for the owner` : `Renew ${domains[0]}`) : `Renew ${domains.length} domains`;
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      description={forOwner ? `You pay from your credit; ${domains[0]} stays with its owner (${single?.ownerAddress}).` : 'Extends from the current expiry, paid from your credit.'}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>Cancel</Button>
          <Button form="renew-form" type="submit" loading={renew.isPending} disabled={loading || !!failed || !valid}>
            {domains.length === 1 ? 'Sign and renew' : `Sign and renew ${domains.length} domains`}
          </Button>
        </>
      }
    >
      {loading ? <Spinner size="sm" label="Reading the expiry and price" /> : null}
      {failed ? <Notice tone="danger" title="This renewal cannot be priced">{explainError(failed.error, { address: session.address }).title}</Notice> : null}
      <form id="renew-form" className="space-y-3" onSubmit={form.handleSubmit(submit)} noValidate>
        <TextField
          label="Years to add"
          type="number"
          inputMode="numeric"
          min={1}
          max={10}
          step={1}
          hint="1 to 10 years; the new expiry may lie at most 10 years from today"
          error={form.formState.errors.durationInYears?.message}
          {...form.register('durationInYears', { valueAsNumber: true })}
        />
      </form>
      {valid && quotes.length === domains.length ? (
        <div className="space-y-2 text-sm" role="status">
          {domains.length === 1 && single ? (
            <p>
              {domains[0]} will expire on <strong>{renewalOf(single, n).newExpiry}</strong> instead of {dateInWords(single.expiresAt)}, for{' '}
              <strong>{usd(renewalOf(single, n).cents)}</strong> ({years(n)} at {usd(single.renewalPriceInUSDCentsPerYear)} a year
              {single.restoreFeeInUSDCents ? `, plus the ${usd(single.restoreFeeInUSDCents)} restore fee that brings its records back` : ''}).
            </p>
          ) : (
            <>
              <ul className="max-h-40 list-disc overflow-y-auto pl-5">
                {quotes.map((q) => (
                  <li key={q.normalizedDomainName}>
                    {q.normalizedDomainName}: until {renewalOf(q, n).newExpiry}, {usd(renewalOf(q, n).cents)}
                    {isOwner(q, session.address) ? '' : ' (for its owner)'}
                  </li>
                ))}
              </ul>
              <p>
                Total: <strong>{usd(total)}</strong> for {domains.length} domains, one signature each.
              </p>
            </>
          )}
        </div>
      ) : null}
      {valid && quotes.length === domains.length ? (
        <SigningNotice lines={domains.map((domain) => noticeOf('renewDomain', { normalizedDomainName: domain, durationInYears: n }) ?? 'RenewDomain')} />
      ) : null}
      {progress.done > 0 && progress.done < domains.length ? <p className="text-sm" role="status">{progress.done} of {domains.length} renewals ordered.</p> : null}
      {progress.declined ? <p className="text-sm" role="status">You declined the signature; nothing more was renewed or charged.</p> : null}
      {progress.problem ? <Notice tone="danger" title="Renewal refused">{progress.problem}</Notice> : null}
    </Dialog>
  );
}
