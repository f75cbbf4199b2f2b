import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/api/use-api.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import { recordsQueryOptions } from '@/features/records/index.ts';
import type { DnsRecord } from '#core/wire/dns.ts';

/**
 * Writes the apex ENS1 TXT record: an ordinary signed record change, one signature (POST /dns/records, or PUT
 * /dns/record over the record there already). The zone's records are read again after.
 */
export function useSetEnsRecord(domain: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: ({ rdata, existing }: { rdata: string; existing: DnsRecord | null }) =>
      existing
        ? signAndCall('updateDnsRecord', { id: existing.id, zoneName: domain, name: '@', type: 'TXT', rdata, ttl: existing.ttl })
        : signAndCall('createDnsRecord', { zoneName: domain, name: '@', type: 'TXT', rdata, ttl: 3600 }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: recordsQueryOptions(api, domain).queryKey }),
  });
}
