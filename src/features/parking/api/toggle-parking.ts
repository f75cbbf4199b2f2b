import { useMutation } from '@tanstack/react-query';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';

/**
 * PUT /dns/park, signed. Parking adds or removes managed records (and may delete apex records and end forwarding):
 * the refresh rule reads the zone and the domain list again.
 */
export function useToggleParking(domain: string) {
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: (input: { enableParking: boolean; overrideExistingRecords: boolean }) =>
      signAndCall('toggleDomainParking', { normalizedDomainName: domain, ...input }),
  });
}
