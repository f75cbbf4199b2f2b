import { useMutation } from '@tanstack/react-query';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';

/** PUT /dns/dnssec, signed. What it changes (the zone's settings, records, answers, history) is read again by the refresh rule. */
export function useToggleDnssec(domain: string) {
  const { signAndCall } = useSignedCall();
  return useMutation({ mutationFn: (enabled: boolean) => signAndCall('toggleDnssec', { normalizedDomainName: domain, enabled }) });
}
