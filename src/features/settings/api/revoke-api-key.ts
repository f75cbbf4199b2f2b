import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '@/lib/api/call.ts';
import { accountKey } from '@/lib/query-keys.ts';

/** DELETE /user/api-keys/{id} */
export function useRevokeApiKey(address: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall('revokeApiKey', { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKey(address, 'api-keys') }),
  });
}
