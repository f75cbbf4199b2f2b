import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import { apiCall } from '@/lib/api/call.ts';
import { accountKey } from '@/lib/query-keys.ts';

/**
 * POST /user/api-keys for a tool: a scoped key, with its TSIG form when the tool sends DNS UPDATE. The answer is the
 * only time the key and the TSIG secret are shown; the key list (shared with Settings and Access) is read again.
 */
export function useCreateToolKey(address: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { label: string; scope: ApiKeyScope; tsig: boolean }) => apiCall('createApiKey', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKey(address, 'api-keys') }),
  });
}
