import { useMutation } from '@tanstack/react-query';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import type { DnsRecord } from '#core/wire/dns.ts';

/**
 * Writes the apex ENS1 TXT record: an ordinary signed record change, one signature (POST /dns/records, or PUT
 * /dns/record over the record there already). The refresh rule reads the zone's records again after.
 */
export function useSetEnsRecord(domain: string) {
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: ({ rdata, existing }: { rdata: string; existing: DnsRecord | null }) =>
      existing
        ? signAndCall('updateDnsRecord', { id: existing.id, zoneName: domain, name: '@', type: 'TXT', rdata, ttl: existing.ttl })
        : signAndCall('createDnsRecord', { zoneName: domain, name: '@', type: 'TXT', rdata, ttl: 3600 }),
  });
}
