import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import type { RecordInput } from '../model/record-form.ts';
import { applyOptimistic, pendingRecord, PENDING_PREFIX, rollback } from './optimistic.ts';

/** One record added: one envelope, one signature (POST /dns/records). */
export function useCreateRecord(zoneName: string) {
  const queryClient = useQueryClient();
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: (record: RecordInput) => signAndCall('createDnsRecord', { zoneName, ...record }),
    onMutate: (record) => applyOptimistic(queryClient, zoneName, (rows) => [...rows, pendingRecord(zoneName, record, `${PENDING_PREFIX}${rows.length}`)]),
    onError: (_error, _record, snapshot) => rollback(queryClient, zoneName, snapshot),
  });
}
