import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Forwarding } from '#core/wire/forwarding.ts';
import { accountKey, zoneKey } from '@/lib/query-keys.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';

export type ForwardingChoice = Omit<Forwarding, 'normalizedDomainName'>;

/** PUT /domain-config/forwarding, signed: changes the apex's managed records and may unpark, so the zone is re-read. */
export function useSetForwarding(domain: string, account: string | undefined) {
  const { signAndCall } = useSignedCall();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: ForwardingChoice) => signAndCall('setForwarding', { normalizedDomainName: domain, ...choice }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: zoneKey(domain) }),
        queryClient.invalidateQueries({ queryKey: accountKey(account, 'domains') }),
      ]),
  });
}
