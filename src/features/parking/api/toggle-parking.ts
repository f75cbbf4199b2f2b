import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKey, zoneKey } from '@/lib/query-keys.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';

/**
 * PUT /dns/park, signed. Parking adds or removes managed records (and may delete apex records), so
 * the whole zone is re-read, and the domain list whose parking flag changed.
 */
export function useToggleParking(domain: string, account: string | undefined) {
  const { signAndCall } = useSignedCall();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { enableParking: boolean; overrideExistingRecords: boolean }) =>
      signAndCall('toggleDomainParking', { normalizedDomainName: domain, ...input }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: zoneKey(domain) }),
        queryClient.invalidateQueries({ queryKey: accountKey(account, 'domains') }),
      ]),
  });
}
