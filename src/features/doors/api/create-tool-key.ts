import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import { apiCall } from '@/lib/api/call.ts';
import { accountKey } from '@/lib/query-keys.ts';

/**
 * POST /user/api-keys for a tool: a scoped key, with its TSIG form when the tool sends DNS UPDATE. The answer is the
 * only time the key and the TSIG secret are shown; the key list (shared with Settings and Access) is read again.
 * `address` is the account signed in when the key is made: a sign-in just before it may not have reached the
 * component's render yet.
 */
export function useCreateToolKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body }: { body: { label: string; scope: ApiKeyScope; tsig: boolean }; address: string }) => apiCall('createApiKey', { body }),
    onSuccess: (_created, { address }) => queryClient.invalidateQueries({ queryKey: accountKey(address, 'api-keys') }),
  });
}
