import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Dialog } from '@/ui/index.ts';
import type { Plan } from '../model/change-set.ts';
import { batchInWords, capLines } from '../model/describe.ts';

export interface ApplyDialogProps {
  open: boolean;
  zoneName: string;
  plan: Plan;
  describeId: (id: string) => string;
  running: number | null;
  onApply: () => void;
  onClose: () => void;
}

/** What applying the change set will sign, in words, before the wallet opens. */
export function ApplyDialog({ open, zoneName, plan, describeId, running, onApply, onClose }: ApplyDialogProps) {
  const count = plan.batches.length;
  const lines = plan.batches.flatMap((batch, i) => capLines(batchInWords(batch, zoneName, describeId), 12, `more in signature ${i + 1}`).map((line, j) => (j === 0 ? `Signature ${i + 1} of ${count}: ${line}` : line)));
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Apply the change set"
      description={count === 0 ? 'Nothing left to send: every pending change is already in the zone.' : `${count} ${count === 1 ? 'signature' : 'signatures'}, one per kind of change (a change of a record\u2019s type on its own, so its new type is signed), in the order deletions, changes, additions. Each is all or nothing.`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={running !== null}>
            Cancel
          </Button>
          <Button onClick={onApply} loading={running !== null}>
            {count === 0 ? 'Clear the change set' : running !== null ? `Signing ${running + 1} of ${count}…` : `Sign and apply (${count} ${count === 1 ? 'signature' : 'signatures'})`}
          </Button>
        </>
      }
    >
      {count > 0 ? <SigningNotice lines={lines} /> : null}
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
