import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Dialog, Notice, ProgressBar } from '@/ui/index.ts';
import type { Plan } from '../model/change-set.ts';
import { batchInWords, capLines } from '../model/describe.ts';
import type { SigningPlan } from '../model/signing-plan.ts';

export interface ApplyDialogProps {
  open: boolean;
  zoneName: string;
  plan: Plan;
  /** The plan fitted to the service's signing types: what is actually signed, and what the person is told first. */
  signing: SigningPlan;
  describeId: (id: string) => string;
  running: number | null;
  onApply: () => void;
  onClose: () => void;
}

/** What applying the change set will sign, in words, before the wallet opens. */
export function ApplyDialog({ open, zoneName, plan, signing, describeId, running, onApply, onClose }: ApplyDialogProps) {
  const count = signing.batches.length;
  const lines = [
    ...signing.batches.flatMap((batch, i) => capLines(batchInWords(batch, zoneName, describeId), 12, `more in signature ${i + 1}`).map((line, j) => (j === 0 ? `Signature ${i + 1} of ${count}: ${line}` : line))),
    ...signing.notices,
  ];
  const cannotStart = count > 0 && (signing.blocked !== null || signing.waiting);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Apply the change set"
      description={
        count === 0
          ? 'Nothing left to send: every pending change is already in the zone.'
          : signing.batches[0]?.kind === 'all'
            ? 'One signature for every change: deletions, changes and additions are applied together, all or nothing.'
            : `${count} ${count === 1 ? 'signature' : 'signatures'}, one per kind of change (a change of a record\u2019s type on its own), in the order deletions, changes, additions. Each is all or nothing.`
      }
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={running !== null}>
            Cancel
          </Button>
          <Button onClick={onApply} loading={running !== null} disabled={cannotStart}>
            {count === 0 ? 'Clear the change set' : running !== null ? `Signing ${running + 1} of ${count}…` : signing.waiting ? 'Checking what this service signs…' : `Sign and apply (${count} ${count === 1 ? 'signature' : 'signatures'})`}
          </Button>
        </>
      }
    >
      {signing.blocked ? (
        <Notice tone="danger" title="This change set cannot be signed safely">
          {signing.blocked}
        </Notice>
      ) : null}
      {running !== null && count > 1 ? (
        <ProgressBar label="Applying the change set" value={running} max={count} valueText={`${running} of ${count} signatures applied`} />
      ) : null}
      {count > 0 && !signing.blocked ? <SigningNotice lines={lines} /> : null}
      {plan.skipped.length > 0 ? (
        <ul className="text-xs text-slate-600 dark:text-slate-400" aria-label="Left out">
          {plan.skipped.map((s) => (
            <li key={s.key}>Left out: {s.reason}</li>
          ))}
        </ul>
      ) : null}
    </Dialog>
  );
}
