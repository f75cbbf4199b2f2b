import { useMutation } from '@tanstack/react-query';
import { useApi } from '@/lib/api/use-api.ts';

/** DELETE /user/api-keys/{id} */
export function useRevokeApiKey() {
  const api = useApi();
  return useMutation({ mutationFn: (id: string) => api.call('revokeApiKey', { params: { id } }) });
}
