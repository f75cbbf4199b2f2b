import { queryOptions } from '@tanstack/react-query';
import type { AutoRenew } from '#core/operations/domain-config.ts';
import type { Api } from '@/lib/api/use-api.ts';

/** Not a zone read: a zone write leaves it as it is. setAutoRenew puts its answer here. */
export const autoRenewKey = (domain: string) => ['auto-renew', domain];

/** GET /domain-config/auto-renew (ours). */
export function autoRenewQuery(api: Api, domain: string, enabled = true) {
  return queryOptions<AutoRenew>({
    queryKey: autoRenewKey(domain),
    queryFn: () => api.call('getAutoRenew', { query: { normalizedDomainName: domain } }),
    enabled: enabled && domain !== '',
  });
}
