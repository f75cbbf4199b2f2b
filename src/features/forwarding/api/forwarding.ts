import { queryOptions } from '@tanstack/react-query';
import type { Forwarding } from '#core/wire/forwarding.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { zoneKey } from '@/lib/query-keys.ts';

/** Under the zone's key: parking turns forwarding off, so any zone write re-reads it. */
const forwardingKey = (domain: string) => [...zoneKey(domain), 'forwarding'];

/** GET /domain-config/forwarding (ours). */
export function forwardingQuery(api: Api, domain: string, enabled = true) {
  return queryOptions<Forwarding>({
    queryKey: forwardingKey(domain),
    queryFn: () => api.call('getForwarding', { query: { normalizedDomainName: domain } }),
    enabled: enabled && domain !== '',
  });
}
