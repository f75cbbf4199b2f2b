import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { isForwardingLoop, targetHost, TARGET_URL_MAX, type ForwardStatusCode } from '#core/wire/forwarding.ts';
import { isParkedZone, zoneRecordsQuery } from '@/features/parking/index.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useConfirmedWrite } from '@/lib/errors/use-confirmed-write.ts';
import { useServiceSupports } from '@/lib/signing/service-supports.ts';
import { useSigningTypes } from '@/lib/signing/signing-queries.ts';
import { Button, Card, Checkbox, Notice, Select, Spinner, TextField } from '@/ui/index.ts';
import { forwardingQuery } from './api/forwarding.ts';
import { useSetForwarding, type ForwardingChoice } from './api/set-forwarding.ts';
import { ForwardDialog } from './components/ForwardDialog.tsx';
import { TryForwarding } from './components/TryForwarding.tsx';
import { STATUS_OPTIONS, STATUS_WORDS } from './forwarding-words.ts';

const FORWARDING_OPERATIONS = ['setForwarding'] as const;

/** The same checks the service makes, said as the person types. */
function targetProblem(domain: string, url: string): string | undefined {
  if (url.trim() === '') return 'Enter the address to send visitors to';
  if (url.length > TARGET_URL_MAX) return `At most ${TARGET_URL_MAX} characters`;
  if (targetHost(url) === null) return 'Enter a full http:// or https:// address, like https://example.org/';
  if (isForwardingLoop(domain, url)) return `That is ${domain} itself: visitors would be sent round in a loop`;
  return undefined;
}

/** On the domain page: forward the domain to another address (ours; production's service has no such operation). */
export default function ForwardingPanel({ domain }: { domain: string }) {
  const api = useApi();
  const session = useWalletSession();
  const supported = useServiceSupports('setForwarding');
  const current = useQuery(forwardingQuery(api, domain, supported === 'yes'));
  const records = useQuery({ ...zoneRecordsQuery(api, domain), enabled: supported === 'yes' });
  const save = useSetForwarding(domain);
  useSigningTypes(FORWARDING_OPERATIONS);
  const [form, setForm] = useState<ForwardingChoice>({ enabled: true, targetUrl: '', statusCode: 301, keepPath: true });
  const [asking, setAsking] = useState<ForwardingChoice | null>(null);
  const write = useConfirmedWrite({ domain, address: session.address });
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (current.data) setForm({ enabled: true, targetUrl: current.data.targetUrl, statusCode: current.data.statusCode, keepPath: current.data.keepPath });
  }, [current.data]);

  const heading = (
    <h2 id="forwarding-heading" className="text-lg font-semibold">
      Forwarding
    </h2>
  );
  if (supported === 'no') {
    return (
      <section aria-labelledby="forwarding-heading">
        <Card className="space-y-2">
          {heading}
          <p className="text-sm">URL forwarding needs this project's own service: the service this dashboard is connected to does not offer it.</p>
        </Card>
      </section>
    );
  }

  const problem = targetProblem(domain, form.targetUrl);
  const parked = records.data ? isParkedZone(records.data) : false;

  const confirm = (choice: ForwardingChoice) =>
    write.run(() => save.mutateAsync(choice), {
      success: choice.enabled ? `${domain} now forwards to ${choice.targetUrl}` : `${domain} no longer forwards`,
      close: () => setAsking(null),
    });

  return (
    <section aria-labelledby="forwarding-heading">
      <Card className="space-y-3">
        <div>
          {heading}
          <p className="text-sm text-slate-600 dark:text-slate-400" role="status">
            {current.isPending
              ? 'Checking…'
              : current.isError
                ? 'Forwarding status unavailable'
                : current.data.enabled
                  ? `Forwarding to ${current.data.targetUrl}, ${STATUS_WORDS[current.data.statusCode].short.toLowerCase()}${current.data.keepPath ? ', path kept' : ''}.`
                  : 'Not forwarding.'}
          </p>
        </div>
        {current.isPending ? <Spinner size="sm" label="Checking forwarding" /> : null}
        {current.isError ? <Notice tone="danger" title={explainError(current.error, { domain }).title}>{explainError(current.error, { domain }).description}</Notice> : null}
        {current.data ? (
          <form
            className="space-y-3"
            onSubmit={(event) => {
              event.preventDefault();
              setTouched(true);
              if (!problem) setAsking({ ...form, enabled: true });
            }}
          >
            <TextField
              label="Send visitors to"
              placeholder="https://example.org/"
              value={form.targetUrl}
              onChange={(e) => setForm({ ...form, targetUrl: e.target.value.trim() })}
              error={touched ? problem : undefined}
            />
            <Select
              label="Kind of redirect"
              value={String(form.statusCode)}
              options={STATUS_OPTIONS}
              onChange={(e) => setForm({ ...form, statusCode: Number(e.target.value) as ForwardStatusCode })}
            />
            <Checkbox label="Keep the path and query (old.com/a?b goes to the target + /a?b)" checked={form.keepPath} onChange={(e) => setForm({ ...form, keepPath: e.target.checked })} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit">{current.data.enabled ? 'Change forwarding' : 'Forward this domain'}</Button>
              {current.data.enabled ? (
                <Button type="button" variant="secondary" onClick={() => setAsking({ ...form, targetUrl: current.data.targetUrl, enabled: false })}>
                  Stop forwarding
                </Button>
              ) : null}
            </div>
          </form>
        ) : null}
        {write.declined ? <p className="text-sm" role="status">You declined the signature; forwarding is unchanged.</p> : null}
        {current.data?.enabled ? <TryForwarding domain={domain} /> : null}
        {asking ? <ForwardDialog domain={domain} choice={asking} parked={parked} busy={save.isPending} onCancel={() => setAsking(null)} onConfirm={() => void confirm(asking)} /> : null}
      </Card>
    </section>
  );
}
