import { useMutation } from '@tanstack/react-query';
import type { Forwarding } from '#core/wire/forwarding.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';

export type ForwardingChoice = Omit<Forwarding, 'normalizedDomainName'>;

/**
 * PUT /domain-config/forwarding, signed: changes the apex's managed records and may unpark; the refresh rule reads
 * the zone and the domain list again.
 */
export function useSetForwarding(domain: string) {
  const { signAndCall } = useSignedCall();
  return useMutation({ mutationFn: (choice: ForwardingChoice) => signAndCall('setForwarding', { normalizedDomainName: domain, ...choice }) });
}
