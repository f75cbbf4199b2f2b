import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Dialog, Notice } from '@/ui/index.ts';
import { recordInWords } from '../model/describe.ts';
import type { Row } from '../model/table.ts';
import type { SubmitProblem } from './RecordForm.tsx';

export interface DeleteDialogProps {
  zoneName: string;
  row: Row | null;
  busy: boolean;
  problem: SubmitProblem['formError'] | null;
  onSign: () => void;
  onDraft: () => void;
  onClose: () => void;
}

export function DeleteDialog({ zoneName, row, busy, problem, onSign, onDraft, onClose }: DeleteDialogProps) {
  return (
    <Dialog
      open={row !== null}
      onClose={onClose}
      title={row ? `Delete the ${row.type} record ${row.name}?` : 'Delete record'}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="secondary" onClick={onDraft} disabled={busy}>
            Add to change set
          </Button>
          <Button variant="danger" onClick={onSign} loading={busy}>
            Delete and sign
          </Button>
        </>
      }
    >
      {row ? <SigningNotice lines={[`Delete one record from ${zoneName}: ${recordInWords(row.record, zoneName)}`]} /> : null}
      {problem ? (
        <Notice tone={problem.tone ?? 'danger'} title={problem.title}>
          {problem.description}
        </Notice>
      ) : null}
    </Dialog>
  );
}
