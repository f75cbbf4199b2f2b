import { queryOptions } from '@tanstack/react-query';
import type { DnssecState } from '#core/wire/dnssec.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { dnssecKey } from '@/lib/query-keys.ts';

/** GET /dns/dnssec: whether the zone is signed, and its DS record. Under the zone's key: a zone write re-reads it. */
export function dnssecQuery(api: Api, domain: string, enabled: boolean) {
  return queryOptions<DnssecState>({
    queryKey: dnssecKey(domain),
    queryFn: () => api.call('getDnssec', { query: { normalizedDomainName: domain } }),
    enabled: enabled && domain !== '',
  });
}
