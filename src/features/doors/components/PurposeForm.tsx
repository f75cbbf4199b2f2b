import { useState, type FormEvent } from 'react';
import { splitList } from '#core/access/scope.ts';
import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import { Button, Checkbox, TextField } from '@/ui/index.ts';
import { fullNameOf, keyInWords, needsTsig, relativeTo, scopeFor, type Purpose } from '../model/purposes.ts';

export interface PurposeChoice {
  /** The names the purpose covers, relative to the zone (`@`, `www`, `*`): the certificate's, or the router's hostnames. */
  names: string[];
  scope: ApiKeyScope;
}

interface Props {
  domain: string;
  purpose: Purpose;
  signedIn: boolean;
  pending: boolean;
  onSubmit: (choice: PurposeChoice) => void;
}

/**
 * What the purpose needs to know (the certificate's names, the router's hostnames), and, before anything is asked of
 * the wallet, what will happen in words: the key's scope, its TSIG form, the one sign-in.
 */
export function PurposeForm({ domain, purpose, signedIn, pending, onSubmit }: Props) {
  const [apex, setApex] = useState(true);
  const [www, setWww] = useState(true);
  const [wildcard, setWildcard] = useState(false);
  const [other, setOther] = useState(purpose === 'router' ? 'home' : '');
  // A router sets the address of names it names one by one: a wildcard is no hostname.
  const typed = splitList(other).map((t) => {
    const name = relativeTo(domain, t);
    return { typed: t, name: purpose === 'router' && name?.startsWith('*') ? null : name };
  });
  const bad = typed.find((t) => t.name === null);
  const picked = purpose === 'certificates' ? [...(apex ? ['@'] : []), ...(www ? ['www'] : []), ...(wildcard ? ['*'] : [])] : [];
  const names = [...new Set([...picked, ...typed.flatMap((t) => (t.name ? [t.name] : []))])];
  const takesNames = purpose === 'certificates' || purpose === 'router';
  const missing = takesNames && names.length === 0;
  const scope = scopeFor(purpose, domain, names);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (bad || missing) return;
    onSubmit({ names, scope });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="The key for this tool" className="space-y-3">
      {purpose === 'certificates' ? (
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium">Names the certificate covers</legend>
          <Checkbox label={domain} checked={apex} onChange={(e) => setApex(e.target.checked)} />
          <Checkbox label={`www.${domain}`} checked={www} onChange={(e) => setWww(e.target.checked)} />
          <Checkbox label={`*.${domain} (every name below it)`} checked={wildcard} onChange={(e) => setWildcard(e.target.checked)} />
        </fieldset>
      ) : null}
      {takesNames ? (
        <TextField
          label={purpose === 'router' ? 'Hostnames' : 'Other names'}
          hint={`Under ${domain}, separated by commas: ${purpose === 'router' ? 'home, nas' : 'api, mail'}`}
          value={other}
          onChange={(e) => setOther(e.target.value)}
          error={bad ? `${bad.typed} is not a name under ${domain}` : missing ? 'Choose at least one name' : undefined}
        />
      ) : null}
      <div role="status" className="space-y-1 rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800">
        <p>
          This makes a key that may {keyInWords(scope)}
          {needsTsig(purpose) ? ', with a TSIG form for DNS UPDATE' : ', for DynDNS2'}. Nothing else: it cannot change other records, settings or keys.
        </p>
        {names.length > 0 && takesNames ? <p>{purpose === 'router' ? 'Hostnames' : 'Certificate for'}: {names.map((n) => fullNameOf(domain, n)).join(', ')}</p> : null}
        <p>Its configuration, with the secret, is shown once, here. {signedIn ? '' : 'First your wallet asks you to sign in, once: a message proving this address is yours. No transaction, nothing is paid.'}</p>
      </div>
      <Button type="submit" loading={pending} disabled={!!bad || missing}>
        {signedIn ? 'Make the key' : 'Sign in and make the key'}
      </Button>
    </form>
  );
}
