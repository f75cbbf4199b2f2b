import { useMutation } from '@tanstack/react-query';
import type { SetAutoRenewInput } from '#core/operations/domain-config.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';

export type AutoRenewChoice = Omit<SetAutoRenewInput, 'normalizedDomainName'>;

/**
 * PUT /domain-config/auto-renew, signed. Its declaration says it changes the domain's settings alone (not the zone):
 * those are read again after it succeeds; a refused or declined write re-reads nothing, so the panel's form keeps
 * what the person chose.
 */
export function useSetAutoRenew(domain: string) {
  const { signAndCall } = useSignedCall();
  return useMutation({ mutationFn: (choice: AutoRenewChoice) => signAndCall('setAutoRenew', { normalizedDomainName: domain, ...choice }) });
}
