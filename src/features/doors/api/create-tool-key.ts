import { useMutation } from '@tanstack/react-query';
import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import { useApi } from '@/lib/api/use-api.ts';

/**
 * POST /user/api-keys for a tool: a scoped key, with its TSIG form when the tool sends DNS UPDATE. The answer is the
 * only time the key and the TSIG secret are shown; what the operation declares it changes (the key list, shared with
 * Settings and Access) is read again before the answer is shown.
 */
export function useCreateToolKey() {
  const api = useApi();
  return useMutation({
    mutationFn: ({ body }: { body: { label: string; scope: ApiKeyScope; tsig: boolean } }) => api.call('createApiKey', { body }),
  });
}
