import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '@/lib/api/call.ts';
import { accountFactKey } from '@/lib/query-keys.ts';

/** GET /user/api-keys */
export function apiKeysQuery(address: string | undefined) {
  return queryOptions({
    queryKey: accountFactKey(address, 'api-keys'),
    queryFn: () => apiCall('listApiKeys'),
  });
}
