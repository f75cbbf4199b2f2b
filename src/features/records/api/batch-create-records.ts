import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import type { RecordInput } from '../model/record-form.ts';
import { applyOptimistic, pendingRecord, PENDING_PREFIX, rollback } from './optimistic.ts';

/** Additions of a change set: one envelope, all or nothing (POST /dns/records/batch). */
export function useBatchCreateRecords(zoneName: string) {
  const queryClient = useQueryClient();
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: (payload: { zoneName: string; records: RecordInput[] }) => signAndCall('batchCreateDnsRecords', payload),
    onMutate: ({ records }) =>
      applyOptimistic(queryClient, zoneName, (rows) => [...rows, ...records.map((r, i) => pendingRecord(zoneName, r, `${PENDING_PREFIX}${rows.length + i}`))]),
    onError: (_error, _vars, snapshot) => rollback(queryClient, zoneName, snapshot),
  });
}
