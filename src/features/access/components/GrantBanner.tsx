import { ROLE_WORDS, scopeInWords } from '@/core/access/scope.ts';
import type { SharedDomain } from '@/core/wire/access.ts';
import { shortAddress } from '@/lib/format.ts';
import { Notice } from '@/ui/index.ts';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** On a shared domain's page: what the grantee may do here, in words, before they try. */
export function GrantBanner({ domain, grant }: { domain: string; grant: SharedDomain }) {
  const what = grant.role === 'viewer' ? ROLE_WORDS.viewer : `${ROLE_WORDS[grant.role]}; your grant covers ${scopeInWords(grant)}`;
  return (
    <Notice tone="info" title={`Shared with you by ${shortAddress(grant.grantedBy)}: ${grant.role}`}>
      {`You ${what} of ${domain}, until ${day(grant.expiresAt)}. Anything else is refused before your wallet opens.`}
    </Notice>
  );
}
