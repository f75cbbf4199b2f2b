import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import { applyOptimistic, rollback } from './optimistic.ts';

/** One record deleted: one envelope (DELETE /dns/record). */
export function useDeleteRecord(zoneName: string) {
  const queryClient = useQueryClient();
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: (id: string) => signAndCall('deleteDnsRecord', { id, zoneName }),
    onMutate: (id) => applyOptimistic(queryClient, zoneName, (rows) => rows.filter((r) => r.id !== id)),
    onError: (_error, _id, snapshot) => rollback(queryClient, zoneName, snapshot),
  });
}
