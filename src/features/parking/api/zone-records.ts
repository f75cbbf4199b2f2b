import { queryOptions } from '@tanstack/react-query';
import type { DnsRecord } from '#core/wire/dns.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { recordsKey } from '@/lib/query-keys.ts';

/** The zone's records, under the records table's key and parse, so both share one cached answer. */
export function zoneRecordsQuery(api: Api, domain: string) {
  return queryOptions<DnsRecord[]>({
    queryKey: recordsKey(domain),
    queryFn: () => api.call('getDnsRecords', { query: { zoneName: domain } }),
    enabled: domain !== '',
  });
}
