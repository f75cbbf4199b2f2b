import { assess, type DomainState } from './actions.ts';
import { saveRun, type BulkRun, type BulkStep } from './bulk-run.ts';

export interface RunDeps {
  /** Reads the domain as it stands now (records and forwarding). */
  read(domain: string): Promise<DomainState>;
  /** Signs and sends one step's call; throws on refusal. */
  send(step: BulkStep): Promise<void>;
  /** Whether an error is the person declining in the wallet: the run stops there. */
  isDeclined(error: unknown): boolean;
  explain(error: unknown): string;
  now(): number;
  onChange(run: BulkRun): void;
}

/**
 * Sends the chosen steps one domain at a time, one signature each, saving the run after every change of state.
 * Each step is re-checked against the domain as it stands just before signing: one that already landed (a reload
 * after the service answered but before the page saw it) is marked done and not sent again, one that now meets a
 * conflict fails without a signature. A declined signature stops the run; what remains stays offered.
 */
export async function runSteps(initial: BulkRun, which: (step: BulkStep) => boolean, deps: RunDeps): Promise<BulkRun> {
  let run = initial;
  const update = (index: number, patch: Partial<BulkStep>) => {
    run = { ...run, steps: run.steps.map((s, i) => (i === index ? { ...s, ...patch } : s)) };
    saveRun(run);
    deps.onChange(run);
  };
  for (let index = 0; index < run.steps.length; index++) {
    const step = run.steps[index];
    if (!which(step)) continue;
    let state: DomainState;
    try {
      state = await deps.read(step.domain);
    } catch (error) {
      update(index, { status: 'failed', error: deps.explain(error) });
      continue;
    }
    const fresh = assess(step.call, state);
    if (fresh.applied) {
      update(index, { ...fresh, status: 'done', error: undefined });
      continue;
    }
    if (fresh.conflicts.length > 0) {
      update(index, { ...fresh, status: 'failed', error: fresh.conflicts.join(' ') });
      continue;
    }
    update(index, { ...fresh, status: 'sending', error: undefined });
    const started = deps.now();
    try {
      await deps.send(run.steps[index]);
      update(index, { status: 'done', ms: deps.now() - started });
    } catch (error) {
      if (deps.isDeclined(error)) {
        update(index, { status: 'planned' });
        break;
      }
      update(index, { status: 'failed', error: deps.explain(error), ms: deps.now() - started });
    }
  }
  return run;
}
