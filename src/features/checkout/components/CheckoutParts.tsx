import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { formatUsdCents } from '@/lib/format.ts';
import { config } from '@/lib/config.ts';
import { dashboardChains } from '@/lib/wallet/chains.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Card, Checkbox, Notice, Select, TextField } from '@/ui/index.ts';
import type { useRequestFaucet } from '../api/request-faucet.ts';
import type { CheckoutValues, YearsRange } from '../checkout-form.ts';
import type { CheckoutNotices } from '../checkout-view.ts';
import { YearsField } from './YearsField.tsx';

/** The checkout's cards (CheckoutForm.tsx lays them out): the price, the NFT's wallet, and paying from credit. */

// The wallet stack loads on demand; the chain list comes from configuration, not from wagmi's context.
export const chains = dashboardChains(config);

type Field = UseFormRegister<CheckoutValues>;

/** The local service's faucet: test credit, added from the checkout. */
function AddTestCredit({ faucet }: { faucet: ReturnType<typeof useRequestFaucet> }) {
  return (
    <Button type="button" variant="secondary" size="sm" loading={faucet.isPending} onClick={() => faucet.mutate()}>
      Add test credit
    </Button>
  );
}

/** The name, the years, the price, the total against the balance, and what to do when the credit falls short. */
export function PriceCard(props: {
  domain: string;
  range: YearsRange;
  field: Field;
  yearsError: string | undefined;
  notices: CheckoutNotices;
  totals: { perYear: number | undefined; total: number | undefined; missing: number };
  balance: { cents: number | undefined; isError: boolean };
  faucet: ReturnType<typeof useRequestFaucet>;
}) {
  const { domain, notices, faucet, balance } = props;
  const { perYear, total, missing } = props.totals;
  return (
    <Card className="space-y-4">
      <h2 className="text-xl font-semibold break-all">{domain}</h2>
      {notices.domain ? <Notice tone="danger" title={`${domain} is no longer available`}>{notices.domain}</Notice> : null}
      <YearsField range={props.range} error={props.yearsError} {...props.field('years', { valueAsNumber: true })} />
      <dl className="grid grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
        <dt>Price per year</dt>
        <dd className="text-right">{perYear !== undefined ? formatUsdCents(perYear) : 'Unknown'}</dd>
        <dt className="font-semibold">Total</dt>
        <dd className="text-right font-semibold" aria-label="Total">{total !== undefined ? formatUsdCents(total) : '—'}</dd>
        <dt>Your balance</dt>
        <dd className="text-right" aria-label="Your balance">
          {balance.cents !== undefined ? formatUsdCents(balance.cents) : balance.isError ? 'Unavailable' : '…'}
        </dd>
      </dl>
      {missing > 0 || notices.balance ? (
        <Notice
          tone="warning"
          title={missing > 0 ? `You need ${formatUsdCents(missing)} more credit` : 'Not enough balance'}
          actions={config.isLocalService ? <AddTestCredit faucet={faucet} /> : null}
        >
          {notices.balance ?? `The total is ${formatUsdCents(total ?? 0)} and your balance is ${formatUsdCents(balance.cents ?? 0)}.`}
        </Notice>
      ) : config.isLocalService ? (
        <div>
          <AddTestCredit faucet={faucet} />
        </div>
      ) : null}
      {faucet.isError ? <Notice tone="danger" title={explainError(faucet.error).title}>{explainError(faucet.error).description}</Notice> : null}
      {faucet.isSuccess && faucet.data.status === 'started' ? <p role="status" className="text-sm">Test credit is on its way.</p> : null}
    </Card>
  );
}

/** Where the domain NFT goes: the signing wallet, or another wallet and chain. */
export function NftWalletCard({ field, custom, errors }: { field: Field; custom: boolean; errors: FieldErrors<CheckoutValues>['nftWallet'] }) {
  return (
    <Card className="space-y-3">
      <Checkbox label="Send the domain NFT to another wallet or chain" {...field('nftWallet.custom')} />
      {custom ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label="Receiving wallet" placeholder="0x…" error={errors?.walletAddress?.message} {...field('nftWallet.walletAddress')} />
          <Select
            label="Receiving chain"
            options={chains.map((c) => ({ value: String(c.id), label: `${c.name} (${c.id})` }))}
            error={errors?.chainId?.message}
            {...field('nftWallet.chainId')}
          />
        </div>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">The NFT goes to the wallet you sign with.</p>
      )}
    </Card>
  );
}

/** Paying from credit: what went wrong last, what will be signed, and the summary with Pay that stays in view. */
export function CreditPayment(props: {
  domain: string;
  years: number;
  total: number | undefined;
  notices: CheckoutNotices;
  cannotSign: string | null;
  signingLines: string[];
  paying: boolean;
  payDisabled: boolean;
}) {
  const { domain, years, total, notices } = props;
  return (
    <>
      <div className="space-y-3">
        {notices.declined ? <Notice tone="info" title="Signature declined">Nothing was ordered. Your choices are still here; pay when you are ready.</Notice> : null}
        {notices.form?.length ? (
          <Notice tone="danger" title="The order was not placed">
            <ul>{notices.form.map((m) => <li key={m}>{m}</li>)}</ul>
          </Notice>
        ) : null}
        {props.cannotSign ? <Notice tone="danger" title="This registration cannot be signed safely">{props.cannotSign}</Notice> : null}
        <SigningNotice lines={props.signingLines} />
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
        <Button type="submit" loading={props.paying} disabled={props.payDisabled}>
          Pay {total !== undefined ? formatUsdCents(total) : ''} and register
        </Button>
      </div>
    </>
  );
}
