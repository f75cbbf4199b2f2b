import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import type { RecordInput } from '../model/record-form.ts';
import { applyOptimistic, confirmRecord, pendingRecord, PENDING_PREFIX, rollback, settle } from './optimistic.ts';

/** One record added: one envelope, one signature (POST /dns/records). */
export function useCreateRecord(zoneName: string) {
  const queryClient = useQueryClient();
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: (record: RecordInput) => signAndCall('createDnsRecord', { zoneName, ...record }),
    onMutate: async (record) => {
      let pendingId = '';
      const snapshot = await applyOptimistic(queryClient, zoneName, (rows) => {
        pendingId = `${PENDING_PREFIX}${rows.length}`;
        return [...rows, pendingRecord(zoneName, record, pendingId)];
      });
      return { ...snapshot, pendingId };
    },
    onSuccess: (stored, _record, context) => confirmRecord(queryClient, zoneName, context.pendingId, stored),
    onError: (_error, _record, snapshot) => {
      rollback(queryClient, zoneName, snapshot);
      void settle(queryClient, zoneName);
    },
  });
}
