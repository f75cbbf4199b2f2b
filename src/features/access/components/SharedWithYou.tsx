import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ROLE_WORDS, scopeInWords } from '#core/access/scope.ts';
import { shortAddress } from '@/lib/format.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { sharedDomainsQuery } from '@/lib/signing/grant-guard.ts';
import { Badge, Card } from '@/ui/index.ts';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * On the Domains page: the domains other wallets let this one help with, each with its role and what it allows in
 * words. A service without grants answers 404, and the section is simply not there.
 */
export function SharedWithYou() {
  const session = useWalletSession();
  const shared = useQuery({ ...sharedDomainsQuery(session.address, session.status === 'signed-in'), retry: false });
  if (!shared.data || shared.data.length === 0) return null;
  return (
    <section aria-labelledby="shared-heading">
      <Card className="space-y-2">
        <h2 id="shared-heading" className="text-lg font-semibold">Shared with you</h2>
        <ul className="divide-y divide-slate-200 dark:divide-slate-700">
          {shared.data.map((d) => (
            <li key={d.normalizedDomainName} className="flex flex-wrap items-center gap-3 py-2 text-sm">
              <Link to={`/domains/${d.normalizedDomainName}`} className="font-medium text-brand-700 underline dark:text-brand-300">
                {d.normalizedDomainName}
              </Link>
              <Badge>{d.role}</Badge>
              <span>
                You {d.role === 'viewer' ? ROLE_WORDS.viewer : `${ROLE_WORDS[d.role]}: ${scopeInWords(d)}`}, until {day(d.expiresAt)}; shared by {shortAddress(d.grantedBy)}
              </span>
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}
