import { useEffect, useState } from 'react';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { SignatureRejectedError } from '@/lib/signing/errors.ts';
import { useServiceSupports } from '@/lib/signing/service-supports.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import { Button, Card, ProgressBar } from '@/ui/index.ts';
import { exportZones } from './api/export-zones.ts';
import { readDomain } from './api/read-domain.ts';
import { ChooseAction } from './components/ChooseAction.tsx';
import { BulkRunView } from './components/BulkRunView.tsx';
import { DiffList } from './components/DiffList.tsx';
import { assess, callFor, signedInWords, type BulkChoice } from './model/actions.ts';
import { clearRun, isOpen, loadRun, saveRun, type BulkRun, type BulkStep } from './model/bulk-run.ts';
import { runSteps } from './model/run-steps.ts';

/**
 * Bulk actions on the selected domains: choose, read every domain and show the plan as a diff with each one's
 * conflicts, then one signature per domain in sequence. The run is saved per account, so a reload mid-way offers
 * what remains (see runSteps for why nothing lands twice).
 */
export default function BulkPanel({ account, selected }: { account: string; selected: string[] }) {
  const api = useApi();
  const { signAndCall } = useSignedCall();
  const forwarding = useServiceSupports('setForwarding') === 'yes';
  const dnssec = useServiceSupports('toggleDnssec') === 'yes';
  const [run, setRun] = useState<BulkRun | null>(() => loadRun(account));
  const [plan, setPlan] = useState<BulkRun | null>(null);
  const [running, setRunning] = useState(false);
  const [reading, setReading] = useState<{ done: number; total: number; what: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => setRun(loadRun(account)), [account]);

  async function makePlan(title: string, choice: BulkChoice) {
    setProblem(null);
    setReading({ done: 0, total: selected.length, what: 'Reading the domains' });
    const steps: BulkStep[] = [];
    try {
      for (const domain of selected) {
        const state = await readDomain(api, domain, { forwarding, dnssec });
        let call;
        try {
          call = callFor(choice, domain);
        } catch (error) {
          setProblem(`${domain}: ${(error as Error).message}`);
          return;
        }
        steps.push({ domain, call, status: 'planned', ...assess(call, state) });
        setReading({ done: steps.length, total: selected.length, what: 'Reading the domains' });
      }
      setPlan({ account, title, steps });
    } catch (error) {
      setProblem(explainError(error, { address: account }).title);
    } finally {
      setReading(null);
    }
  }

  async function go(start: BulkRun, which: (step: BulkStep) => boolean) {
    setRunning(true);
    saveRun(start);
    setRun(start);
    setPlan(null);
    try {
      await runSteps(start, which, {
        read: (domain) => readDomain(api, domain, { forwarding, dnssec }),
        // signAndCall refreshes what each step's operation changes (the zone's facts, the domain list).
        send: async (step) => {
          await signAndCall(step.call.operation, step.call.payload);
        },
        isDeclined: (error) => error instanceof SignatureRejectedError,
        explain: (error) => {
          const e = explainError(error, { domain: undefined, address: account });
          return e.description ? `${e.title}: ${e.description}` : e.title;
        },
        now: () => performance.now(),
        onChange: setRun,
      });
    } finally {
      setRunning(false);
    }
  }

  async function download() {
    setReading({ done: 0, total: selected.length, what: 'Exporting zones' });
    try {
      const blob = await exportZones(api, selected, (done) => setReading({ done, total: selected.length, what: 'Exporting zones' }));
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `zones-${new Date().toISOString().slice(0, 10)}.zip`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      setProblem(explainError(error, { address: account }).title);
    } finally {
      setReading(null);
    }
  }

  if (run) {
    return (
      <BulkRunView
        run={run}
        running={running}
        onContinue={() => void go(run, isOpen)}
        onRetryFailed={() => void go({ ...run, steps: run.steps.map((s) => (s.status === 'failed' ? { ...s, status: 'planned' as const } : s)) }, (s) => s.status === 'planned')}
        onDismiss={() => {
          clearRun(account);
          setRun(null);
        }}
      />
    );
  }

  const signable = plan?.steps.filter((s) => !s.applied && s.conflicts.length === 0) ?? [];
  return (
    <section aria-labelledby="bulk-heading">
      <Card className="space-y-3">
        <h2 id="bulk-heading" className="text-lg font-semibold">Change {selected.length} selected {selected.length === 1 ? 'domain' : 'domains'}</h2>
        {plan ? (
          <div className="space-y-3">
            <h3 className="font-medium">Plan: {plan.title}</h3>
            <ul className="space-y-2" aria-label="Plan per domain">
              {plan.steps.map((step) => (
                <li key={step.domain} className="rounded-lg border border-slate-200 p-2 text-sm dark:border-slate-700">
                  <p className="font-medium">{step.domain}{step.applied ? ' — already so, nothing to sign' : ''}</p>
                  <DiffList diff={step.diff} />
                  {step.conflicts.map((c) => (
                    <p key={c} className="mt-1 text-red-800 dark:text-red-300">Conflict: {c}</p>
                  ))}
                </li>
              ))}
            </ul>
            <SigningNotice lines={signable.map((s) => signedInWords(s.call))} />
            <div className="flex flex-wrap gap-2">
              <Button disabled={signable.length === 0} onClick={() => void go(plan, (s) => s.status === 'planned')}>
                Sign {signable.length} {signable.length === 1 ? 'change' : 'changes'}, one per domain
              </Button>
              <Button variant="secondary" onClick={() => setPlan(null)}>Back</Button>
            </div>
          </div>
        ) : (
          <ChooseAction count={selected.length} forwardingSupported={forwarding} dnssecSupported={dnssec} busy={reading !== null} onPlan={(t, c) => void makePlan(t, c)} onExport={() => void download()} />
        )}
        {reading ? <ProgressBar value={reading.done} max={reading.total} label={reading.what} /> : null}
        {problem ? <p role="alert" className="text-sm text-red-800 dark:text-red-300">{problem}</p> : null}
      </Card>
    </section>
  );
}
