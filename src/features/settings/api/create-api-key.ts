import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '@/lib/api/call.ts';
import { accountKey } from '@/lib/query-keys.ts';

/** POST /user/api-keys: the answer is the only time the key itself is shown. */
export function useCreateApiKey(address: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (label: string) => apiCall('createApiKey', { body: { label } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKey(address, 'api-keys') }),
  });
}
