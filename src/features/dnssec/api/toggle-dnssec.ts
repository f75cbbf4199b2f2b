import { useMutation } from '@tanstack/react-query';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import type { SigningChoice } from '../dnssec-words.ts';

/**
 * PUT /dns/dnssec, signed, with how the zone is to be signed (SetDnssec). What it changes (the zone's settings,
 * records, answers, history) is read again by the refresh rule.
 */
export function useToggleDnssec(domain: string) {
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: ({ enabled, choice }: { enabled: boolean; choice: SigningChoice }) => signAndCall('toggleDnssec', { normalizedDomainName: domain, enabled, ...choice }),
  });
}

/**
 * PUT /dns/dnssec, signed as ConfirmParentDs: during an algorithm rollover, the owner's word that the parent holds the
 * new key's DS (its key tag), which lets the service remove the old key once the old DS has left the caches.
 */
export function useConfirmParentDs(domain: string) {
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: (keyTag: number) => signAndCall('toggleDnssec', { normalizedDomainName: domain, enabled: true, dsAtParent: keyTag }),
  });
}
