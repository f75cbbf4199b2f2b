import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { fullName } from '#core/dns/names.ts';
import { txtFromWire } from '#core/dns/rdata.ts';
import type { MailFinding, MailFix } from '#core/wire/mail.ts';
import type { ApiError } from '@/lib/api-error.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { recordsQueryOptions, useDraft } from '@/features/records/index.ts';
import { Badge, Button, Card, Notice, Spinner, useToast } from '@/ui/index.ts';
import { isMailCheckUnsupported, mailCheckQuery } from './api/check-mail-auth.ts';
import { byTopic, withFix, worst } from './model/findings.ts';
import { MailWizard } from './components/MailWizard.tsx';

const SEVERITY = {
  error: { tone: 'danger', label: 'Problem' },
  warning: { tone: 'warning', label: 'Advice' },
  ok: { tone: 'success', label: 'OK' },
} as const;

const SUMMARY = {
  error: 'Mail sent as this domain is likely to be refused or land in spam: fix the problems below.',
  warning: 'Mail authenticates; the advice below makes it safer.',
  ok: 'Mail sent as this domain authenticates: SPF, DMARC and DKIM are in place.',
} as const;

const fixInWords = (fix: MailFix, zoneName: string) => `${fix.type} at ${fullName(fix.name, zoneName)}: ${fix.type === 'TXT' ? txtFromWire(fix.rdata) : fix.rdata}`;

/**
 * The Mail tab of a domain: the mail authentication check (SPF, DMARC, DKIM, MX, MTA-STS, TLS-RPT) in plain words,
 * each part with why it matters, and for a finding one record fixes, a button that puts that record into the
 * records change set (reviewed and signed on the Records tab, which `onChangeSet` shows).
 */
export default function MailPanel({ domain, onChangeSet }: { domain: string; onChangeSet: () => void }) {
  const zoneName = domain.toLowerCase();
  const api = useApi();
  const session = useWalletSession();
  const check = useQuery(mailCheckQuery(api, zoneName));
  const records = useQuery(recordsQueryOptions(api, zoneName));
  const [, updateDraft] = useDraft(session.address, zoneName);
  const { toast } = useToast();
  const [wizard, setWizard] = useState(false);

  if (check.isPending) return <Spinner label="Checking mail authentication" />;
  if (check.isError && isMailCheckUnsupported(check.error as ApiError)) {
    return <Notice title="No mail check here">This service does not offer the mail check; the local Namefi service does.</Notice>;
  }
  if (check.isError) {
    const explained = explainError(check.error, { domain: zoneName });
    return (
      <Notice tone="danger" title="The mail check could not run" actions={<Button onClick={() => void check.refetch()}>Try again</Button>}>
        {explained.title}
        {explained.description ? `: ${explained.description}` : ''}
      </Notice>
    );
  }

  const { findings } = check.data;
  const addFix = (finding: MailFinding & { fix: MailFix }) => {
    updateDraft((draft) => withFix(draft, records.data ?? [], finding));
    toast({ tone: 'info', title: 'Added to the change set', description: `${fixInWords(finding.fix, zoneName)}. Review it, then sign it like any change.`, durationMs: 4000 });
    onChangeSet();
  };

  return (
    <section aria-labelledby="mail-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="mail-title" className="text-lg font-semibold">
          Mail authentication
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="secondary" onClick={() => setWizard(true)} disabled={records.isPending}>
            Set up mail for a provider
          </Button>
          <Button size="sm" variant="secondary" onClick={() => void check.refetch()} disabled={check.isFetching}>
            {check.isFetching ? 'Checking…' : 'Check again'}
          </Button>
        </div>
      </div>
      {wizard ? (
        <MailWizard
          zoneName={zoneName}
          zone={records.data ?? []}
          onClose={() => setWizard(false)}
          onAdd={(update, count) => {
            updateDraft(update);
            setWizard(false);
            toast({ tone: 'info', title: 'Added to the change set', description: `${count} mail records. Review them, then sign them together like any change.`, durationMs: 4000 });
            onChangeSet();
          }}
        />
      ) : null}
      <p className="text-sm">{SUMMARY[worst(findings)]}</p>
      {byTopic(findings).map(({ topic, findings: list }) => (
        <Card key={topic.prefix} className="space-y-2">
          <h3 className="font-semibold">{topic.title}</h3>
          <p className="text-xs text-slate-600 dark:text-slate-400">{topic.why}</p>
          <ul className="space-y-3 text-sm">
            {list.map((f, i) => (
              <li key={`${f.id}-${i}`} className="space-y-1">
                <div className="flex flex-wrap items-start gap-2">
                  <Badge tone={SEVERITY[f.severity].tone}>{SEVERITY[f.severity].label}</Badge>
                  <span className="min-w-0 flex-1">{f.message}</span>
                </div>
                {f.record ? <code className="block break-all text-xs text-slate-600 dark:text-slate-400">{f.record}</code> : null}
                {f.fix ? (
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="text-xs">Fix: {fixInWords(f.fix, zoneName)}</span>
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={records.isPending}
                      aria-label={`Put the ${f.fix.type} record at ${fullName(f.fix.name, zoneName)} in the change set`}
                      onClick={() => addFix(f as MailFinding & { fix: MailFix })}
                    >
                      Put the fix in the change set
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </Card>
      ))}
    </section>
  );
}
