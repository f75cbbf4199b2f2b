import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { Button, Card, Notice, PageHeader, Spinner } from '@/ui/index.ts';
import { availabilityQuery, parseTypedDomain } from '@/features/search/index.ts';
import { yearsRange, initialYears } from './checkout-form.ts';
import { CheckoutForm } from './components/CheckoutForm.tsx';
import { X402Checkout } from './components/X402Checkout.tsx';

/** /checkout/:domain?years= — years, total and balance, optional records and receiving wallet, then Pay. */
export default function CheckoutPage() {
  const raw = decodeURIComponent(useParams().domain ?? '');
  const [params] = useSearchParams();
  const parsed = parseTypedDomain(raw);
  const api = useApi();
  const session = useWalletSession();
  const settings = useSettings();
  const availability = useQuery(availabilityQuery(api, parsed.ok ? parsed.name : undefined));
  const canPay = session.status === 'signed-in' || !!settings.apiKey;

  const header = (
    <PageHeader
      title="Checkout"
      description={parsed.ok ? (parsed.typed ? `Register ${parsed.name} (${parsed.typed} → ${parsed.name}: the form registered and signed)` : `Register ${parsed.name}`) : undefined}
    />
  );
  if (!parsed.ok) {
    return (
      <div className="mx-auto max-w-3xl">
        {header}
        <Notice tone="warning" title={`“${raw}” is not a domain name you can register`} actions={<Link to="/search" className="underline">Back to search</Link>}>
          {parsed.reason}
        </Notice>
      </div>
    );
  }
  if (availability.isPending) return <div className="mx-auto max-w-3xl">{header}<Spinner label={`Checking ${parsed.name}`} /></div>;
  if (availability.isError) {
    const explained = explainError(availability.error, { domain: parsed.name });
    return <div className="mx-auto max-w-3xl">{header}<Notice tone="danger" title={explained.title}>{explained.description}</Notice></div>;
  }
  if (!availability.data.availability) {
    return (
      <div className="mx-auto max-w-3xl">
        {header}
        <Notice
          tone="warning"
          title={`${parsed.name} cannot be registered`}
          actions={<Link to={`/search?q=${encodeURIComponent(parsed.label)}`} className="underline">Find another name</Link>}
        >
          {availability.data.reason ?? 'It is not available.'}
        </Notice>
      </div>
    );
  }
  if (!canPay) {
    return (
      <div className="mx-auto max-w-3xl">
        {header}
        <Card className="space-y-3">
          <p>Sign in with your wallet to buy <strong>{parsed.name}</strong>. Your choice is kept.</p>
          <Button onClick={() => void session.requestSignIn()}>Connect and sign in</Button>
        </Card>
        <div className="mt-6">
          <X402Checkout domain={parsed.name} range={yearsRange(availability.data)} initialYears={initialYears(params.get('years'), yearsRange(availability.data))} />
        </div>
      </div>
    );
  }
  const range = yearsRange(availability.data);
  return (
    <div className="mx-auto max-w-3xl">
      {header}
      <CheckoutForm
        key={`${parsed.name}:${session.address ?? 'api-key'}`}
        domain={parsed.name}
        availability={availability.data}
        range={range}
        initialYears={initialYears(params.get('years'), range)}
        account={session.address}
      />
    </div>
  );
}
