import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import type { Availability } from '#core/wire/search.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { useSigningTypes } from '@/lib/signing/signing-queries.ts';
import { Card } from '@/ui/index.ts';
import { balanceQuery } from '@/features/balance/index.ts';
import { useRegisterDomain } from '../api/register-domain.ts';
import { useRequestFaucet } from '../api/request-faucet.ts';
import { checkoutSchema, registrationRequest, registrationSigningNotes, type CheckoutValues, type YearsRange } from '../checkout-form.ts';
import { checkoutTotals, registrationLines, x402BlockedBy } from '../checkout-view.ts';
import { useCheckoutSubmit, useYearsInUrl } from '../use-checkout-submit.ts';
import { chains, CreditPayment, NftWalletCard, PriceCard } from './CheckoutParts.tsx';
import { RecordRowsEditor } from './RecordRowsEditor.tsx';
import { PaymentMethodChoice, type PaymentMethod } from './PaymentMethodChoice.tsx';
import { X402Payment } from './X402Payment.tsx';

const REGISTRATION_OPERATIONS = ['registerDomain', 'registerWithRecords'] as const;

/**
 * Registering one name: the years and price (PriceCard), records to create with it, where the NFT goes, and the
 * payment, from credit (signed here) or by x402. What it shows is worked out in checkout-view.ts; Pay is
 * useCheckoutSubmit.
 */
export function CheckoutForm({ domain, availability, range, initialYears, account }: {
  domain: string;
  availability: Availability;
  range: YearsRange;
  initialYears: number;
  account: `0x${string}` | undefined;
}) {
  const api = useApi();
  const balance = useQuery(balanceQuery(api, account, true));
  const faucet = useRequestFaucet(account);
  const register = useRegisterDomain(domain, account);
  // Asked as checkout opens, so Pay never waits on them; they also decide the notice below.
  const signingTypes = useSigningTypes(REGISTRATION_OPERATIONS);
  const [method, setMethod] = useState<PaymentMethod>('credit');

  const form = useForm<CheckoutValues>({
    resolver: zodResolver(checkoutSchema({ domain, range })),
    mode: 'onTouched',
    defaultValues: {
      years: initialYears,
      records: [],
      nftWallet: { custom: false, walletAddress: account ?? '', chainId: String(chains[0]?.id ?? '') },
    },
  });
  const { register: field, watch, formState } = form;
  const years = watch('years');
  const records = watch('records');
  const nftWallet = watch('nftWallet');
  useYearsInUrl(years);
  const { onSubmit, notices } = useCheckoutSubmit({ domain, form, register });

  const balanceCents = balance.data?.totalBalanceInUsdCents;
  const totals = checkoutTotals({ availability, range, years, balanceCents });
  const { validYears, total, missing } = totals;
  const signingLines = registrationLines({ domain, values: { years, records, nftWallet }, validYears, total });
  const signing = registrationSigningNotes(registrationRequest(domain, { years, records, nftWallet }), signingTypes);
  const unsignable = signing.cannot !== null;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6" aria-label={`Checkout for ${domain}`}>
      <PriceCard
        domain={domain}
        range={range}
        field={field}
        yearsError={formState.errors.years?.message}
        notices={notices}
        totals={totals}
        balance={{ cents: balanceCents, isError: balance.isError }}
        faucet={faucet}
      />

      <Card>
        <RecordRowsEditor domain={domain} control={form.control} register={field} errors={formState.errors.records} />
      </Card>

      <NftWalletCard field={field} custom={nftWallet.custom} errors={formState.errors.nftWallet} />

      <PaymentMethodChoice value={method} onChange={setMethod} />
      {method === 'x402' ? (
        <X402Payment
          domain={domain}
          years={validYears ? years : undefined}
          receiver={nftWallet.custom ? nftWallet.walletAddress : undefined}
          blockedBy={x402BlockedBy(records.length)}
        />
      ) : (
        <CreditPayment
          domain={domain}
          years={years}
          total={total}
          notices={notices}
          cannotSign={signing.cannot}
          signingLines={[...signingLines, ...signing.lines]}
          paying={register.isPending}
          payDisabled={missing > 0 || total === undefined || unsignable}
        />
      )}
    </form>
  );
}
