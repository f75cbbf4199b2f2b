import { useQuery } from '@tanstack/react-query';
import type { SharedDomain } from '#core/wire/access.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { sharedDomainsQuery } from '@/lib/signing/grant-guard.ts';

/**
 * The signed-in wallet's live grant for a domain, or null (its owner, a visitor, or a service without grants): what
 * the domain page shows a grantee, and what the signing path checks a write against before the wallet opens.
 */
export function useMyGrant(domain: string): SharedDomain | null {
  const session = useWalletSession();
  const shared = useQuery({ ...sharedDomainsQuery(session.address, session.status === 'signed-in'), retry: false });
  return shared.data?.find((d) => d.normalizedDomainName === domain) ?? null;
}
