import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { ROLE_WORDS, scopeInWords } from '#core/access/scope.ts';
import type { ZoneGrant } from '#core/wire/access.ts';
import type { ApiKeySummary } from '#core/wire/user.ts';
import { noticeOf } from '#core/operations/index.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useConfirmedWrite } from '@/lib/errors/use-confirmed-write.ts';
import { shortAddress } from '@/lib/format.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useServiceSupports } from '@/lib/signing/service-supports.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { useSigningTypes } from '@/lib/signing/signing-queries.ts';
import { apiKeysQuery } from '@/features/settings/index.ts';
import { Badge, Button, Card, Dialog, Notice, Select, Spinner, TextField } from '@/ui/index.ts';
import { useGrantZoneAccess, useRevokeZoneAccess, zoneGrantsQuery } from './api/zone-access.ts';
import { formInWords, grantFormSchema, toInput, type GrantForm } from './model/grant-form.ts';

const ACCESS_OPERATIONS = ['grantZoneAccess', 'revokeZoneAccess'] as const;
const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const inAWeek = () => new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10);
const ROLE_OPTIONS = (['viewer', 'editor', 'manager'] as const).map((r) => ({ value: r, label: `${r[0].toUpperCase()}${r.slice(1)}: ${ROLE_WORDS[r]}` }));

function stateOf(grant: ZoneGrant): { label: string; tone: 'success' | 'neutral' } {
  if (grant.revokedAt) return { label: `Revoked on ${day(grant.revokedAt)}`, tone: 'neutral' };
  if (Date.parse(grant.expiresAt) <= Date.now()) return { label: `Expired on ${day(grant.expiresAt)}`, tone: 'neutral' };
  return { label: `Until ${day(grant.expiresAt)}`, tone: 'success' };
}

/** Whether a key can reach this domain: an old unlimited key, or a scope of every zone or naming this one. */
const reaches = (key: ApiKeySummary, domain: string) => !key.scope || key.scope.zones.length === 0 || key.scope.zones.includes(domain);
const keyScopeInWords = (key: ApiKeySummary) =>
  key.scope
    ? `${key.scope.access === 'read' ? 'Reads only' : 'Writes'} ${scopeInWords(key.scope)}${key.scope.expiresAt ? `, until ${day(key.scope.expiresAt)}` : ''}${key.scope.cidrs.length > 0 ? `, from ${key.scope.cidrs.join(', ')}` : ''}`
    : 'Unlimited (an old key): acts as your wallet on every domain';

function KeysReaching({ domain }: { domain: string }) {
  const session = useWalletSession();
  const keys = useQuery({ ...apiKeysQuery(session.address), enabled: session.status === 'signed-in' });
  const reaching = (keys.data ?? []).filter((k) => reaches(k, domain));
  return (
    <section aria-labelledby="access-keys-heading" className="space-y-2">
      <h3 id="access-keys-heading" className="font-semibold">API keys that reach {domain}</h3>
      {session.status !== 'signed-in' ? (
        <p className="text-sm">Sign in to see your API keys.</p>
      ) : keys.isPending ? (
        <Spinner size="sm" label="Loading API keys" />
      ) : reaching.length === 0 ? (
        <p className="text-sm">No API key of yours reaches {domain}. Keys are made in Settings.</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {reaching.map((k) => (
            <li key={k.id}>
              <span className="font-medium">{k.label}</span> <span className="font-mono">{k.prefix}…</span>: {keyScopeInWords(k)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The domain page's Access tab, for the owner (contract: Access): the people the owner lets help (short address,
 * role, scope and expiry in words, revoke), "Add a person", which says what the grant allows before the wallet
 * opens, and the API keys that reach the domain. Against a service without grants, the keys alone.
 */
export default function AccessPanel({ domain }: { domain: string }) {
  const supported = useServiceSupports('grantZoneAccess');
  const session = useWalletSession();
  const grants = useQuery(zoneGrantsQuery(domain, supported === 'yes' && session.status === 'signed-in'));
  const grant = useGrantZoneAccess();
  const revoke = useRevokeZoneAccess(domain);
  useSigningTypes(ACCESS_OPERATIONS);
  const write = useConfirmedWrite({ domain, address: session.address });
  const [asking, setAsking] = useState<GrantForm | null>(null);
  const [revoking, setRevoking] = useState<ZoneGrant | null>(null);
  const form = useForm<GrantForm>({ resolver: zodResolver(grantFormSchema), defaultValues: { grantee: '', role: 'editor', names: '', types: '', until: inAWeek() } });
  const role = form.watch('role');

  const people =
    supported !== 'yes' ? null : (
      <section aria-labelledby="access-people-heading" className="space-y-3">
        <h3 id="access-people-heading" className="font-semibold">People</h3>
        {session.status !== 'signed-in' ? <p className="text-sm">Sign in to see who may help with {domain}.</p> : null}
        {grants.isPending && session.status === 'signed-in' ? <Spinner size="sm" label="Loading people" /> : null}
        {grants.isError ? <Notice tone="danger" title={explainError(grants.error, { domain }).title}>{explainError(grants.error, { domain }).description}</Notice> : null}
        {grants.data && grants.data.length === 0 ? <p className="text-sm">Nobody else may change {domain}.</p> : null}
        {grants.data && grants.data.length > 0 ? (
          <ul className="divide-y divide-slate-200 dark:divide-slate-700" aria-label="People with access">
            {grants.data.map((g) => {
              const state = stateOf(g);
              const live = !g.revokedAt && Date.parse(g.expiresAt) > Date.now();
              return (
                <li key={g.id} className="flex flex-wrap items-center gap-3 py-2 text-sm">
                  <span className="font-mono" title={g.grantee}>{shortAddress(g.grantee)}</span>
                  <Badge>{g.role}</Badge>
                  <span>{g.role === 'viewer' ? ROLE_WORDS.viewer : `${ROLE_WORDS[g.role]}: ${scopeInWords(g)}`}</span>
                  <Badge tone={state.tone}>{state.label}</Badge>
                  {live ? (
                    <Button size="sm" variant="secondary" className="ml-auto" onClick={() => setRevoking(g)} aria-label={`Revoke ${shortAddress(g.grantee)}`}>
                      Revoke
                    </Button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        ) : null}
        <form className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700" aria-label="Add a person" onSubmit={form.handleSubmit((f) => setAsking(f))} noValidate>
          <h4 className="font-medium">Add a person</h4>
          <TextField label="Wallet address" placeholder="0x…" error={form.formState.errors.grantee?.message} {...form.register('grantee')} />
          <Select label="Role" options={ROLE_OPTIONS} {...form.register('role')} />
          {role !== 'viewer' ? (
            <>
              <TextField label="Names" hint="Separated by commas: www, api, *.dev (every name below dev); empty: every name" error={form.formState.errors.names?.message} {...form.register('names')} />
              <TextField label="Record types" hint="Separated by commas: A, AAAA, TXT; empty: every type" error={form.formState.errors.types?.message} {...form.register('types')} />
            </>
          ) : null}
          <TextField label="Until" type="date" error={form.formState.errors.until?.message} {...form.register('until')} />
          <Button type="submit">Review the grant</Button>
        </form>
        {write.declined ? <p className="text-sm" role="status">You declined the signature; nothing was granted or revoked.</p> : null}
      </section>
    );

  return (
    <section aria-labelledby="access-heading">
      <Card className="space-y-4">
        <div>
          <h2 id="access-heading" className="text-lg font-semibold">Access</h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {supported === 'no'
              ? 'This service does not offer grants to other wallets; your API keys are listed below.'
              : 'Let other wallets help with this domain, within limits you sign. A grant ends by itself when it expires or the domain moves to another holder.'}
          </p>
        </div>
        {supported === 'checking' ? <Spinner size="sm" label="Checking access" /> : null}
        {people}
        <KeysReaching domain={domain} />
      </Card>
      {asking ? (
        <Dialog
          open
          onClose={() => setAsking(null)}
          title={`Let ${shortAddress(asking.grantee.trim().toLowerCase())} help with ${domain}?`}
          description="What the grant allows:"
          footer={
            <>
              <Button variant="secondary" onClick={() => setAsking(null)}>Cancel</Button>
              <Button
                loading={grant.isPending}
                onClick={() =>
                  void write.run(() => grant.mutateAsync(toInput(domain, asking)), {
                    success: `${shortAddress(asking.grantee.trim().toLowerCase())} may now help with ${domain}`,
                    close: () => {
                      setAsking(null);
                      form.reset({ grantee: '', role: 'editor', names: '', types: '', until: inAWeek() });
                    },
                  })
                }
              >
                Sign and grant
              </Button>
            </>
          }
        >
          <p className="text-sm">{formInWords(domain, asking)}.</p>
          <SigningNotice lines={[noticeOf('grantZoneAccess', toInput(domain, asking)) ?? 'GrantZoneAccess']} />
        </Dialog>
      ) : null}
      {revoking ? (
        <Dialog
          open
          onClose={() => setRevoking(null)}
          title={`Revoke ${shortAddress(revoking.grantee)}?`}
          description={`Their ${revoking.role} grant ends at once: their next change of ${domain} is refused.`}
          footer={
            <>
              <Button variant="secondary" onClick={() => setRevoking(null)}>Keep</Button>
              <Button variant="danger" loading={revoke.isPending} onClick={() => void write.run(() => revoke.mutateAsync(revoking.id), { success: `${shortAddress(revoking.grantee)} no longer has access to ${domain}`, close: () => setRevoking(null) })}>
                Sign and revoke
              </Button>
            </>
          }
        >
          <SigningNotice lines={[noticeOf('revokeZoneAccess', { zoneName: domain, grantId: revoking.id }) ?? 'RevokeZoneAccess']} />
        </Dialog>
      ) : null}
    </section>
  );
}
