import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useApi } from '@/lib/api/use-api.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { Notice } from '@/ui/index.ts';
import { userDomainsQueryOptions } from './api/get-user-domains.ts';
import { expiryBanner } from './model/expiry-banner.ts';

/**
 * The domain page's word on an expired domain, above the tabs: the state and its dates, what still works, and the
 * one action that fixes it (Renew, on the Renewal tab). Nothing while the domain is active, for a visitor who does
 * not own it, or against a service that gives no status.
 */
export default function ExpiryBanner({ domain }: { domain: string }) {
  const api = useApi();
  const session = useWalletSession();
  const signedIn = session.status === 'signed-in';
  const domains = useQuery({ ...userDomainsQueryOptions(api, session.address), enabled: signedIn });
  const mine = domains.data?.find((d) => d.normalizedDomainName === domain);
  const model = mine ? expiryBanner(mine) : null;
  if (!model) return null;
  return (
    <section aria-label="Expiry">
      <Notice
        tone={model.tone}
        title={model.title}
        actions={
          <Link to={`/domains/${domain}?tab=renewal`} className="rounded-md bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-800">
            {model.action}
          </Link>
        }
      >
        {model.works}
      </Notice>
    </section>
  );
}
