import { useEffect, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { Availability } from '#core/wire/search.ts';
import { ApiError } from '@/lib/api/client.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { formatUsdCents } from '@/lib/format.ts';
import { config } from '@/lib/config.ts';
import { dashboardChains } from '@/lib/wallet/chains.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { SignatureRejectedError } from '@/lib/signing/errors.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { useSigningTypes } from '@/lib/signing/signing-queries.ts';
import { Button, Card, Checkbox, Notice, Select, TextField } from '@/ui/index.ts';
import { balanceQuery } from '@/features/balance/index.ts';
import { useRegisterDomain } from '../api/register-domain.ts';
import { useRequestFaucet } from '../api/request-faucet.ts';
import {
  checkoutSchema, missingCents, placeServiceError, pricePerYearCents, registrationRequest, registrationSigningNotes, totalCents,
  type CheckoutValues, type YearsRange,
} from '../checkout-form.ts';
import { RecordRowsEditor } from './RecordRowsEditor.tsx';
import { PaymentMethodChoice, type PaymentMethod } from './PaymentMethodChoice.tsx';
import { X402Payment } from './X402Payment.tsx';
import { YearsField } from './YearsField.tsx';

const REGISTRATION_OPERATIONS = ['registerDomain', 'registerWithRecords'] as const;

// The wallet stack loads on demand; the chain list comes from configuration, not from wagmi's context.
const chains = dashboardChains(config);

export function CheckoutForm({ domain, availability, range, initialYears, account }: {
  domain: string;
  availability: Availability;
  range: YearsRange;
  initialYears: number;
  account: `0x${string}` | undefined;
}) {
  const api = useApi();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const balance = useQuery(balanceQuery(api, account, true));
  const faucet = useRequestFaucet(account);
  const register = useRegisterDomain(domain, account);
  // Asked as checkout opens, so Pay never waits on them; they also decide the notice below.
  const signingTypes = useSigningTypes(REGISTRATION_OPERATIONS);
  const [method, setMethod] = useState<PaymentMethod>('credit');
  const [notices, setNotices] = useState<{ balance?: string; domain?: string; form?: string[]; declined?: boolean }>({});

  const form = useForm<CheckoutValues>({
    resolver: zodResolver(checkoutSchema({ domain, range })),
    mode: 'onTouched',
    defaultValues: {
      years: initialYears,
      records: [],
      nftWallet: { custom: false, walletAddress: account ?? '', chainId: String(chains[0]?.id ?? '') },
    },
  });
  const { register: field, handleSubmit, watch, formState, setError } = form;
  const years = watch('years');
  const records = watch('records');
  const nftWallet = watch('nftWallet');

  // Keep the chosen years in the URL: a reload or a sign-in detour comes back to the same choice.
  useEffect(() => {
    if (!Number.isInteger(years) || String(years) === params.get('years')) return;
    const next = new URLSearchParams(params);
    next.set('years', String(years));
    setParams(next, { replace: true });
  }, [years, params, setParams]);

  const perYear = pricePerYearCents(availability);
  const validYears = Number.isInteger(years) && years >= range.min && years <= range.max;
  const total = perYear !== undefined && validYears ? totalCents(perYear, years) : undefined;
  const balanceCents = balance.data?.totalBalanceInUsdCents;
  const missing = total !== undefined && balanceCents !== undefined ? missingCents(total, balanceCents) : 0;

  const signingLines = [
    `Register ${domain} for ${validYears ? years : '?'} year${years === 1 ? '' : 's'}, paying ${total !== undefined ? formatUsdCents(total) : '…'} from your credit`,
    ...(records.length > 0 ? [`Create ${records.length} DNS record${records.length === 1 ? '' : 's'} once it is registered`] : []),
    ...(nftWallet.custom ? [`Send the domain NFT to ${nftWallet.walletAddress || '…'} on chain ${nftWallet.chainId || '…'}`] : []),
  ];
  const signing = registrationSigningNotes(registrationRequest(domain, { years, records, nftWallet }), signingTypes);
  const unsignable = signing.cannot !== null;

  const onSubmit = handleSubmit(async (values) => {
    setNotices({});
    try {
      const order = await register.mutateAsync(registrationRequest(domain, values));
      navigate(`/orders/${encodeURIComponent(order.id)}`);
    } catch (error) {
      if (error instanceof SignatureRejectedError) return setNotices({ declined: true });
      if (!(error instanceof ApiError)) return setNotices({ form: [explainError(error, { domain }).description ?? String(error)] });
      const next: typeof notices = {};
      for (const placed of placeServiceError(error)) {
        if ('field' in placed) setError(placed.field as Path<CheckoutValues>, { message: placed.message }, { shouldFocus: true });
        else if (placed.place === 'form') next.form = [...(next.form ?? []), placed.message];
        else next[placed.place] = placed.message;
      }
      if (error.status !== 400 && error.status !== 422 && error.status !== 402 && error.status !== 409) {
        const explained = explainError(error, { domain });
        next.form = [[explained.title, explained.description].filter(Boolean).join(': ')];
      }
      setNotices(next);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6" aria-label={`Checkout for ${domain}`}>
      <Card className="space-y-4">
        <h2 className="text-xl font-semibold break-all">{domain}</h2>
        {notices.domain ? <Notice tone="danger" title={`${domain} is no longer available`}>{notices.domain}</Notice> : null}
        <YearsField
          range={range}
          error={formState.errors.years?.message}
          {...field('years', { valueAsNumber: true })}
        />
        <dl className="grid grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
          <dt>Price per year</dt>
          <dd className="text-right">{perYear !== undefined ? formatUsdCents(perYear) : 'Unknown'}</dd>
          <dt className="font-semibold">Total</dt>
          <dd className="text-right font-semibold" aria-label="Total">{total !== undefined ? formatUsdCents(total) : '—'}</dd>
          <dt>Your balance</dt>
          <dd className="text-right" aria-label="Your balance">
            {balanceCents !== undefined ? formatUsdCents(balanceCents) : balance.isError ? 'Unavailable' : '…'}
          </dd>
        </dl>
        {missing > 0 || notices.balance ? (
          <Notice
            tone="warning"
            title={missing > 0 ? `You need ${formatUsdCents(missing)} more credit` : 'Not enough balance'}
            actions={
              config.isLocalService ? (
                <Button type="button" variant="secondary" size="sm" loading={faucet.isPending} onClick={() => faucet.mutate()}>
                  Add test credit
                </Button>
              ) : null
            }
          >
            {notices.balance ?? `The total is ${formatUsdCents(total ?? 0)} and your balance is ${formatUsdCents(balanceCents ?? 0)}.`}
          </Notice>
        ) : config.isLocalService ? (
          <div>
            <Button type="button" variant="secondary" size="sm" loading={faucet.isPending} onClick={() => faucet.mutate()}>
              Add test credit
            </Button>
          </div>
        ) : null}
        {faucet.isError ? <Notice tone="danger" title={explainError(faucet.error).title}>{explainError(faucet.error).description}</Notice> : null}
        {faucet.isSuccess && faucet.data.status === 'started' ? <p role="status" className="text-sm">Test credit is on its way.</p> : null}
      </Card>

      <Card>
        <RecordRowsEditor domain={domain} control={form.control} register={field} errors={formState.errors.records} />
      </Card>

      <Card className="space-y-3">
        <Checkbox label="Send the domain NFT to another wallet or chain" {...field('nftWallet.custom')} />
        {nftWallet.custom ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label="Receiving wallet" placeholder="0x…" error={formState.errors.nftWallet?.walletAddress?.message} {...field('nftWallet.walletAddress')} />
            <Select
              label="Receiving chain"
              options={chains.map((c) => ({ value: String(c.id), label: `${c.name} (${c.id})` }))}
              error={formState.errors.nftWallet?.chainId?.message}
              {...field('nftWallet.chainId')}
            />
          </div>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">The NFT goes to the wallet you sign with.</p>
        )}
      </Card>

      <PaymentMethodChoice value={method} onChange={setMethod} />
      {method === 'x402' ? (
        <X402Payment
          domain={domain}
          years={validYears ? years : undefined}
          receiver={nftWallet.custom ? nftWallet.walletAddress : undefined}
          blockedBy={records.length > 0 ? `An x402 purchase buys the name alone: remove the ${records.length} record${records.length === 1 ? '' : 's'} here and add them once it is registered.` : undefined}
        />
      ) : (
        <>
          <div className="space-y-3">
            {notices.declined ? <Notice tone="info" title="Signature declined">Nothing was ordered. Your choices are still here; pay when you are ready.</Notice> : null}
            {notices.form?.length ? (
              <Notice tone="danger" title="The order was not placed">
                <ul>{notices.form.map((m) => <li key={m}>{m}</li>)}</ul>
              </Notice>
            ) : null}
            {signing.cannot ? <Notice tone="danger" title="This registration cannot be signed safely">{signing.cannot}</Notice> : null}
            <SigningNotice lines={[...signingLines, ...signing.lines]} />
          </div>
          {/* The summary and Pay stay in view while the person scrolls the form (on a phone it is taller than the
              screen), above the toast stack's reserved room. */}
          <div
            data-testid="checkout-summary"
            className="sticky bottom-[var(--toast-space,0px)] z-10 -mx-4 flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-4px_12px_rgba(15,23,42,0.08)] sm:mx-0 sm:rounded-xl sm:border dark:border-slate-700 dark:bg-slate-900/95"
          >
            <p className="min-w-0 text-sm">
              <span className="block truncate font-medium">{domain}</span>
              <span className="text-slate-700 dark:text-slate-300">
                {Number.isFinite(years) ? `${years} ${years === 1 ? 'year' : 'years'} · ` : ''}Total {total !== undefined ? formatUsdCents(total) : '—'}
              </span>
            </p>
            <Button type="submit" loading={register.isPending} disabled={missing > 0 || total === undefined || unsignable}>
              Pay {total !== undefined ? formatUsdCents(total) : ''} and register
            </Button>
          </div>
        </>
      )}
    </form>
  );
}
