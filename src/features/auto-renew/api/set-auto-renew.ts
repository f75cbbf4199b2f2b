import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SetAutoRenewInput } from '#core/operations/domain-config.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import { autoRenewKey } from './get-auto-renew.ts';

export type AutoRenewChoice = Omit<SetAutoRenewInput, 'normalizedDomainName'>;

/**
 * PUT /domain-config/auto-renew, signed. The answer is the new setting; nothing else changes (not the zone), and a
 * refused or declined write re-reads nothing, so the panel's form keeps what the person chose.
 */
export function useSetAutoRenew(domain: string) {
  const { signAndCall } = useSignedCall();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: AutoRenewChoice) => signAndCall('setAutoRenew', { normalizedDomainName: domain, ...choice }),
    onSuccess: (setting) => queryClient.setQueryData(autoRenewKey(domain), setting),
  });
}
