import { useMutation } from '@tanstack/react-query';
import { useApi } from '@/lib/api/use-api.ts';
import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';

/** POST /user/api-keys: the answer is the only time the key itself is shown. */
export function useCreateApiKey() {
  const api = useApi();
  return useMutation({ mutationFn: (body: { label: string; scope?: ApiKeyScope }) => api.call('createApiKey', { body }) });
}
