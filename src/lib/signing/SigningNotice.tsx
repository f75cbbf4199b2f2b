import type { JSX } from 'react';
import { useQuery } from '@tanstack/react-query';
import { signingForLine } from '../session/acting.ts';
import { useWalletSession } from '../session/wallet-session.ts';
import { signingDomainLine } from './signing-domain-line.ts';
import { signingDomainQuery } from './signing-queries.ts';

/**
 * Says what the wallet is about to ask, before it opens, so the signature request is no surprise. A request to the
 * service (`forService`, the default) also names the service's signing domain (from /eip712/domain); a payment's
 * authorization is signed under its token's own domain, so that notice names none.
 */
export function SigningNotice({ lines, forService = true }: { lines: string[]; forService?: boolean }): JSX.Element {
  const { acting } = useWalletSession();
  const signingFor = acting ? signingForLine(acting) : undefined;
  const domain = useQuery({ ...signingDomainQuery(), enabled: forService }).data;
  return (
    <div role="note" className="rounded-lg border border-brand-200 bg-brand-50 px-3 py-2 text-sm text-brand-950 dark:border-brand-800 dark:bg-brand-950 dark:text-brand-100">
      <p className="font-medium">Your wallet will ask you to sign:</p>
      <ul className="mt-1 list-disc pl-5">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {forService && domain ? <p className="mt-1">{signingDomainLine(domain)}</p> : null}
      {signingFor ? <p className="mt-1">{signingFor}</p> : null}
      <p className="mt-1 text-xs opacity-80">Signing is free and sends no transaction.</p>
    </div>
  );
}
