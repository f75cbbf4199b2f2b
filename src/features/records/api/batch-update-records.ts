import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import type { RecordInput } from '../model/record-form.ts';
import { batchUpdatePayload } from '../model/signing-plan.ts';
import { applyOptimistic, rollback } from './optimistic.ts';

/** Edits of a change set: one envelope, all or nothing (PUT /dns/records/batch). */
export function useBatchUpdateRecords(zoneName: string) {
  const queryClient = useQueryClient();
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: (payload: { zoneName: string; records: Array<RecordInput & { id: string }> }) =>
      signAndCall('batchUpdateDnsRecords', batchUpdatePayload(payload)),
    onMutate: ({ records }) => {
      const byId = new Map(records.map((r) => [r.id, r]));
      return applyOptimistic(queryClient, zoneName, (rows) => rows.map((r) => ({ ...r, ...byId.get(r.id) })));
    },
    onError: (_error, _vars, snapshot) => rollback(queryClient, zoneName, snapshot),
  });
}
