import { useState } from 'react';
import { Button, Dialog } from '@/ui/index.ts';
import { allSettled, type Resolution, type RevertStep } from '../model/revert.ts';
import type { Preparing } from '../use-history.ts';

const line = (r: { name: string; ttl: number; type: string; rdata: string }) => `${r.name} ${r.ttl} ${r.type} ${r.rdata}`;

function StepText({ step }: { step: RevertStep }) {
  if (step.kind === 'create') return <>+ {line(step.record)}</>;
  if (step.kind === 'delete') return <>- {line(step.current)}</>;
  return (
    <>
      - {line(step.current)}
      <br />+ {line(step.record)}
    </>
  );
}

/**
 * The inverse changes before they join the change set: each one as a diff line; a record changed again since the
 * entry is a conflict the person settles (put the old version back, or keep it as it is now) before anything is added.
 */
export function RevertDialog({ preparing, zoneName, onAdd, onClose }: { preparing: Preparing | null; zoneName: string; onAdd: (r: Record<string, Resolution>) => void; onClose: () => void }) {
  const [resolutions, setResolutions] = useState<Record<string, Resolution>>({});
  const steps = preparing?.steps ?? [];
  const conflicts = steps.filter((s) => s.conflict).length;
  const settle = (key: string, resolution: Resolution) => setResolutions((r) => ({ ...r, [key]: resolution }));
  const close = () => {
    setResolutions({});
    onClose();
  };
  return (
    <Dialog
      open={preparing !== null}
      onClose={close}
      title={preparing?.title ?? ''}
      description={steps.length === 0 ? `${zoneName} already holds these records: nothing to change.` : `${steps.length} ${steps.length === 1 ? 'change' : 'changes'} to ${zoneName}, added to the change set to review and sign.`}
      footer={
        <>
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button
            disabled={steps.length === 0 || !allSettled(steps, resolutions)}
            onClick={() => {
              onAdd(resolutions);
              setResolutions({});
            }}
          >
            Add to the change set
          </Button>
        </>
      }
    >
      {conflicts > 0 ? <p className="mb-2 text-sm text-amber-800 dark:text-amber-300">{conflicts === 1 ? 'One record has' : `${conflicts} records have`} changed since: choose for each before anything is signed.</p> : null}
      <ul className="space-y-2" aria-label="Changes to put back">
        {steps.map((step) => (
          <li key={step.key} className="rounded border border-slate-200 p-2 dark:border-slate-700">
            <pre className="whitespace-pre-wrap font-mono text-xs">
              <StepText step={step} />
            </pre>
            {step.conflict ? (
              <fieldset className="mt-2 text-sm">
                <legend className="text-amber-800 dark:text-amber-300">Conflict: {step.conflict}</legend>
                <label className="mr-4">
                  <input type="radio" name={step.key} checked={resolutions[step.key] === 'restore'} onChange={() => settle(step.key, 'restore')} /> Put the old version back
                </label>
                <label>
                  <input type="radio" name={step.key} checked={resolutions[step.key] === 'keep'} onChange={() => settle(step.key, 'keep')} /> Keep it as it is now
                </label>
              </fieldset>
            ) : null}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
