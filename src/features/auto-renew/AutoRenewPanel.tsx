import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { noticeOf } from '#core/operations/index.ts';
import { AUTO_RENEW_DEFAULTS, AUTO_RENEW_YEARS, setAutoRenewInput, type AutoRenew } from '#core/operations/domain-config.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useConfirmedWrite } from '@/lib/errors/use-confirmed-write.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useServiceSupports } from '@/lib/signing/service-supports.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { useSigningTypes } from '@/lib/signing/signing-queries.ts';
import { Button, Card, Dialog, Notice, Select, Spinner, Switch } from '@/ui/index.ts';
import { autoRenewQuery } from './api/get-auto-renew.ts';
import { useSetAutoRenew, type AutoRenewChoice } from './api/set-auto-renew.ts';

const AUTO_RENEW_OPERATIONS = ['setAutoRenew'] as const;
/** The form checks what the service checks: the signed fields but the domain, which the page fixes. */
const choiceSchema = setAutoRenewInput.omit({ normalizedDomainName: true });
const years = (n: number) => `${n} year${n === 1 ? '' : 's'}`;
const YEAR_OPTIONS = Array.from({ length: AUTO_RENEW_YEARS.max - AUTO_RENEW_YEARS.min + 1 }, (_, i) => AUTO_RENEW_YEARS.min + i).map((n) => ({ value: String(n), label: years(n) }));
const day = (iso: string) => iso.slice(0, 10);

function stateInWords(setting: AutoRenew): string {
  if (!setting.enabled) return 'Off: the domain expires unless someone renews it.';
  const next = setting.nextAttemptAt ? `; the next attempt is due on ${day(setting.nextAttemptAt)}` : '';
  return `On: renews for ${years(setting.durationInYears)} at a time from the owner's credit${next}.`;
}

/** "What will happen", before the wallet opens. */
function planOf(domain: string, choice: AutoRenewChoice): string {
  return choice.enabled
    ? `Before ${domain} expires, the service renews it for ${years(choice.durationInYears)} from your credit; short of credit, it says so here and tries again daily.`
    : `${domain} is no longer renewed automatically: it expires unless someone renews it.`;
}

/**
 * On the domain page: whether the domain renews itself before it expires, from its owner's credit (ours; the
 * service this dashboard talks to may not offer it, and then the panel says so). Only the owner can set it.
 */
export default function AutoRenewPanel({ domain }: { domain: string }) {
  const api = useApi();
  const session = useWalletSession();
  const supported = useServiceSupports('setAutoRenew');
  const current = useQuery(autoRenewQuery(api, domain, supported === 'yes'));
  const save = useSetAutoRenew(domain);
  useSigningTypes(AUTO_RENEW_OPERATIONS);
  const write = useConfirmedWrite({ domain, address: session.address });
  const [asking, setAsking] = useState<AutoRenewChoice | null>(null);
  const form = useForm<AutoRenewChoice>({ resolver: zodResolver(choiceSchema), defaultValues: { enabled: AUTO_RENEW_DEFAULTS.enabled, durationInYears: AUTO_RENEW_DEFAULTS.durationInYears } });

  // The form starts from what the service holds, and again after a saved change; a refused one re-reads nothing, so the form keeps the person's choice.
  const { reset } = form;
  useEffect(() => {
    if (current.data) reset({ enabled: current.data.enabled, durationInYears: current.data.durationInYears });
  }, [current.data, reset]);

  const heading = (
    <h2 id="auto-renew-heading" className="text-lg font-semibold">
      Auto-renew
    </h2>
  );
  if (supported === 'no') {
    return (
      <section aria-labelledby="auto-renew-heading">
        <Card className="space-y-2">
          {heading}
          <p className="text-sm">Auto-renew needs this project's own service: the service this dashboard is connected to does not offer it.</p>
        </Card>
      </section>
    );
  }

  const confirm = (choice: AutoRenewChoice) =>
    write.run(() => save.mutateAsync(choice), {
      success: choice.enabled ? `${domain} renews itself for ${years(choice.durationInYears)} at a time` : `${domain} no longer renews itself`,
      close: () => setAsking(null),
    });

  return (
    <section aria-labelledby="auto-renew-heading">
      <Card className="space-y-3">
        <div>
          {heading}
          <p className="text-sm text-slate-600 dark:text-slate-400" role="status">
            {supported === 'checking' || current.isPending ? 'Checking…' : current.isError ? 'Auto-renew status unavailable' : stateInWords(current.data)}
          </p>
        </div>
        {current.data?.enabled && current.data.lastAttempt?.outcome === 'short-of-credit' ? (
          <Notice tone="warning" title="Short of credit: not renewed yet">
            {`The renewal tried on ${day(current.data.lastAttempt.at)} could not be paid: ${current.data.lastAttempt.reason ?? 'the balance is too low'}. Top up the owner's balance; it tries again${current.data.nextAttemptAt ? ` on ${day(current.data.nextAttemptAt)}` : ' daily'}.`}
          </Notice>
        ) : null}
        {supported === 'checking' || current.isPending ? <Spinner size="sm" label="Checking auto-renew" /> : null}
        {current.isError ? <Notice tone="danger" title={explainError(current.error, { domain }).title}>{explainError(current.error, { domain }).description}</Notice> : null}
        {current.data ? (
          <form className="space-y-3" onSubmit={form.handleSubmit((choice) => setAsking(choice))}>
            <Controller
              control={form.control}
              name="enabled"
              render={({ field }) => <Switch label="Renew automatically" checked={field.value} onChange={field.onChange} />}
            />
            <Select
              label="Years each renewal adds"
              options={YEAR_OPTIONS}
              error={form.formState.errors.durationInYears?.message}
              {...form.register('durationInYears', { valueAsNumber: true })}
            />
            <Button type="submit" disabled={!form.formState.isDirty}>Save auto-renew</Button>
          </form>
        ) : null}
        {write.declined ? <p className="text-sm" role="status">You declined the signature; auto-renew is unchanged.</p> : null}
        {asking ? (
          <Dialog
            open
            onClose={() => setAsking(null)}
            title={asking.enabled ? `Renew ${domain} automatically?` : `Stop renewing ${domain} automatically?`}
            description="What will happen:"
            footer={
              <>
                <Button variant="secondary" onClick={() => setAsking(null)}>Cancel</Button>
                <Button loading={save.isPending} onClick={() => void confirm(asking)}>Sign and save</Button>
              </>
            }
          >
            <p className="text-sm">{planOf(domain, asking)}</p>
            <SigningNotice lines={[noticeOf('setAutoRenew', { normalizedDomainName: domain, ...asking }) ?? 'SetAutoRenew']} />
          </Dialog>
        ) : null}
      </Card>
    </section>
  );
}
