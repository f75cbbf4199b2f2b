import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import { applyOptimistic, rollback } from './optimistic.ts';

/** Deletes of a change set: one envelope, all or nothing (DELETE /dns/records/batch). */
export function useBatchDeleteRecords(zoneName: string) {
  const queryClient = useQueryClient();
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: (payload: { zoneName: string; recordsIds: string[] }) => signAndCall('batchDeleteDnsRecords', payload),
    onMutate: ({ recordsIds }) => {
      const ids = new Set(recordsIds);
      return applyOptimistic(queryClient, zoneName, (rows) => rows.filter((r) => !ids.has(r.id)));
    },
    onError: (_error, _vars, snapshot) => rollback(queryClient, zoneName, snapshot),
  });
}
