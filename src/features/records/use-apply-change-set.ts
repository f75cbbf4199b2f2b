import { useCallback, useState } from 'react';
import { SignatureRejectedError } from '@/lib/signing/errors.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import { useBatchCreateRecords } from './api/batch-create-records.ts';
import { useBatchDeleteRecords } from './api/batch-delete-records.ts';
import { useBatchUpdateRecords } from './api/batch-update-records.ts';
import { useUpdateRecord } from './api/update-record.ts';
import { dropKeys, settleBatch, type Draft, type Plan } from './model/change-set.ts';
import { sentPayload } from './model/signing-plan.ts';
import { reasonFromError } from './errors.ts';

export type ApplyResult =
  | { status: 'applied'; batches: number }
  | { status: 'declined'; landed: number }
  | { status: 'failed'; landed: number; message: string };

/**
 * Applies a planned change set batch by batch (deletes, updates, type changes, creates), one signature each; the plan
 * is the one planSigning fitted to the service's types. A batch that
 * lands leaves the draft; the first refusal stops, keeping it and everything after it in the draft.
 */
export function useApplyChangeSet(zoneName: string, address: string | undefined, updateDraft: (change: (draft: Draft) => Draft) => void) {
  const deletes = useBatchDeleteRecords(zoneName);
  const updates = useBatchUpdateRecords(zoneName);
  const retypes = useUpdateRecord(zoneName);
  const creates = useBatchCreateRecords(zoneName);
  const { signAndCall } = useSignedCall();
  const [running, setRunning] = useState<number | null>(null);

  const apply = useCallback(
    async (plan: Plan): Promise<ApplyResult> => {
      updateDraft((draft) => dropKeys(draft, plan.skipped.map((s) => s.key)));
      let landed = 0;
      try {
        for (const [index, batch] of plan.batches.entries()) {
          setRunning(index);
          try {
            if (batch.kind === 'delete') await deletes.mutateAsync(batch.payload);
            else if (batch.kind === 'update') await updates.mutateAsync(batch.payload);
            else if (batch.kind === 'retype') await retypes.mutateAsync({ id: batch.id, record: batch.payload });
            else if (batch.kind === 'create') await creates.mutateAsync(batch.payload);
            // One record per signature (the service's batch type cannot sign the batch). Each write that lands
            // reads the zone again (the refresh rule in useSignedCall).
            else await signAndCall(batch.operationId, sentPayload(batch));
          } catch (error) {
            if (error instanceof SignatureRejectedError) return { status: 'declined', landed };
            const reason = reasonFromError(error, { domain: zoneName, address });
            updateDraft((draft) => settleBatch(draft, batch, { ok: false, ...reason }));
            return { status: 'failed', landed, message: reason.message };
          }
          landed += 1;
          updateDraft((draft) => settleBatch(draft, batch, { ok: true }));
        }
        return { status: 'applied', batches: landed };
      } finally {
        setRunning(null);
      }
    },
    [address, creates, deletes, retypes, signAndCall, updateDraft, updates, zoneName],
  );
  return { apply, running };
}
