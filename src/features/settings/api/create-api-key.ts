import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '@/lib/api/call.ts';
import { accountKey } from '@/lib/query-keys.ts';
import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';

/** POST /user/api-keys: the answer is the only time the key itself is shown. */
export function useCreateApiKey(address: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { label: string; scope?: ApiKeyScope }) => apiCall('createApiKey', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKey(address, 'api-keys') }),
  });
}
