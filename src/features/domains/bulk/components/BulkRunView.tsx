import { Badge, Button, Card, ProgressBar } from '@/ui/index.ts';
import { progressOf, type BulkRun } from '../model/bulk-run.ts';
import { DiffList } from './DiffList.tsx';

const STATUS_WORDS = { planned: 'Waiting', sending: 'Signing…', done: 'Applied', failed: 'Failed' } as const;
const STATUS_TONE = { planned: 'neutral', sending: 'info', done: 'success', failed: 'danger' } as const;

/** A bulk change under way or finished: a progress bar, each domain's result as it comes, and what is left to do. */
export function BulkRunView({ run, running, onContinue, onRetryFailed, onDismiss }: {
  run: BulkRun;
  running: boolean;
  onContinue: () => void;
  onRetryFailed: () => void;
  onDismiss: () => void;
}) {
  const p = progressOf(run);
  const timed = run.steps.filter((s) => s.status === 'done' && s.ms !== undefined);
  const perDomain = timed.length ? Math.round(timed.reduce((sum, s) => sum + (s.ms ?? 0), 0) / timed.length) : null;
  return (
    <section aria-labelledby="bulk-run-heading">
      <Card className="space-y-3">
        <h2 id="bulk-run-heading" className="text-lg font-semibold">{run.title}</h2>
        <ProgressBar value={p.finished} max={p.total} label={`${run.title}: domains finished`} />
        <p role="status" className="text-sm">
          {p.done} of {p.total} applied{p.failed ? `, ${p.failed} failed` : ''}
          {p.remaining && !running ? `, ${p.remaining} not yet signed` : ''}
          {perDomain !== null ? ` · about ${(perDomain / 1000).toFixed(1)} s per domain` : ''}
        </p>
        <ul className="space-y-2" aria-label="Result per domain">
          {run.steps.map((step) => (
            <li key={step.domain} className="rounded-lg border border-slate-200 p-2 text-sm dark:border-slate-700">
              <div className="flex items-center justify-between gap-2">
                <span className="font-medium">{step.domain}</span>
                <Badge tone={STATUS_TONE[step.status]}>{STATUS_WORDS[step.status]}</Badge>
              </div>
              {step.status === 'failed' && step.error ? <p className="mt-1 text-red-800 dark:text-red-300">{step.error}</p> : null}
              {step.status !== 'done' ? <DiffList diff={step.diff} /> : null}
            </li>
          ))}
        </ul>
        {!running ? (
          <div className="flex flex-wrap gap-2">
            {p.remaining > 0 ? <Button onClick={onContinue}>Continue: sign the {p.remaining} remaining</Button> : null}
            {p.failed > 0 ? <Button variant="secondary" onClick={onRetryFailed}>Retry the failed ones</Button> : null}
            <Button variant="ghost" onClick={onDismiss}>{p.remaining > 0 ? 'Discard the rest' : 'Done'}</Button>
          </div>
        ) : null}
      </Card>
    </section>
  );
}
