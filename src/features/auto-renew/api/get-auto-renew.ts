import { queryOptions } from '@tanstack/react-query';
import type { AutoRenew } from '#core/operations/domain-config.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { settingKey } from '@/lib/query-keys.ts';

/** GET /domain-config/auto-renew (ours). */
export function autoRenewQuery(api: Api, domain: string, enabled = true) {
  return queryOptions<AutoRenew>({
    queryKey: settingKey(domain, 'auto-renew'),
    queryFn: () => api.call('getAutoRenew', { query: { normalizedDomainName: domain } }),
    enabled: enabled && domain !== '',
  });
}
