import { queryOptions } from '@tanstack/react-query';
import type { Api } from '@/lib/api/use-api.ts';
import { accountFactKey } from '@/lib/query-keys.ts';
import type { UserDomain } from '#core/wire/user.ts';

/** The signed-in wallet's domains (GET /user/domains, SIWE). */
export function userDomainsQueryOptions(api: Api, address: string | undefined) {
  return queryOptions<UserDomain[]>({
    queryKey: accountFactKey(address, 'domains'),
    queryFn: () => api.call('getUserDomains'),
    enabled: !!address,
  });
}
