import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dnssecKey, zoneKey } from '@/lib/query-keys.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';

/** PUT /dns/dnssec, signed. The answer is the new state; the zone's serial changed, so its other reads are stale too. */
export function useToggleDnssec(domain: string) {
  const { signAndCall } = useSignedCall();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => signAndCall('toggleDnssec', { normalizedDomainName: domain, enabled }),
    onSuccess: (state) => queryClient.setQueryData(dnssecKey(domain), state),
    onSettled: () => queryClient.invalidateQueries({ queryKey: zoneKey(domain) }),
  });
}
