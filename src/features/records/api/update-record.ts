import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import type { RecordInput } from '../model/record-form.ts';
import { applyOptimistic, rollback } from './optimistic.ts';

/** One record edited: one envelope (PUT /dns/record). Every field is sent: an absent ttl would sign as 0. */
export function useUpdateRecord(zoneName: string) {
  const queryClient = useQueryClient();
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: ({ id, record }: { id: string; record: RecordInput }) => signAndCall('updateDnsRecord', { id, zoneName, ...record }),
    onMutate: ({ id, record }) => applyOptimistic(queryClient, zoneName, (rows) => rows.map((r) => (r.id === id ? { ...r, ...record } : r))),
    onError: (_error, _vars, snapshot) => rollback(queryClient, zoneName, snapshot),
  });
}
