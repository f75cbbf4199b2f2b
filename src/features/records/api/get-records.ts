import { queryOptions } from '@tanstack/react-query';
import type { Api } from '@/lib/api/use-api.ts';
import { recordsKey } from '@/lib/query-keys.ts';
import type { DnsRecord } from '#core/wire/dns.ts';

/** Every record of a zone, stored and managed (GET /dns/records, public). */
export function recordsQueryOptions(api: Api, zoneName: string) {
  return queryOptions<DnsRecord[]>({
    queryKey: recordsKey(zoneName),
    queryFn: () => api.call('getDnsRecords', { query: { zoneName } }),
  });
}
