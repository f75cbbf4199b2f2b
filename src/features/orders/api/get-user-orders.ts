import { queryOptions } from '@tanstack/react-query';
import type { Api } from '@/lib/api/use-api.ts';
import { accountFactKey } from '@/lib/query-keys.ts';

function userOrdersKey(account: string | undefined): unknown[] {
  return accountFactKey(account, 'orders');
}

/** GET /user/orders: order items of the caller, newest first. */
export function userOrdersQuery(api: Api, account: string | undefined, enabled: boolean) {
  return queryOptions({
    queryKey: userOrdersKey(account),
    queryFn: () => api.call('getUserOrders'),
    enabled,
    staleTime: 30_000,
  });
}
