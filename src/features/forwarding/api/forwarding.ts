import { queryOptions } from '@tanstack/react-query';
import type { Forwarding } from '#core/wire/forwarding.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { settingKey } from '@/lib/query-keys.ts';

/** GET /domain-config/forwarding (ours). */
export function forwardingQuery(api: Api, domain: string, enabled = true) {
  return queryOptions<Forwarding>({
    queryKey: settingKey(domain, 'forwarding'),
    queryFn: () => api.call('getForwarding', { query: { normalizedDomainName: domain } }),
    enabled: enabled && domain !== '',
  });
}
