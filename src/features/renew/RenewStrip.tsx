import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/api/use-api.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { Button } from '@/ui/index.ts';
import { renewalQuoteQuery } from './api/renewal-quote.ts';
import { RenewDialog } from './components/RenewDialog.tsx';
import { dateInWords } from './model/renew-form.ts';

/**
 * On the domain page, one compact line: when the domain expires, and a Renew button ("Renew for the owner" to a
 * visitor, who may pay as a gift). Hidden when the service offers no renewals (its quote answers an error).
 */
export default function RenewStrip({ domain }: { domain: string }) {
  const api = useApi();
  const session = useWalletSession();
  const quote = useQuery(renewalQuoteQuery(api, domain));
  const [open, setOpen] = useState(false);
  if (!quote.data) return null;
  const owner = !!session.address && quote.data.ownerAddress.toLowerCase() === session.address.toLowerCase();
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <p>
        Expires on <time dateTime={quote.data.expiresAt}>{dateInWords(quote.data.expiresAt)}</time>
      </p>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
        {owner ? 'Renew' : 'Renew for the owner'}
      </Button>
      {open ? <RenewDialog domains={[domain]} onClose={() => setOpen(false)} /> : null}
    </div>
  );
}
