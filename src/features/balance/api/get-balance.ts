import { queryOptions } from '@tanstack/react-query';
import type { Api } from '@/lib/api/use-api.ts';
import { accountFactKey } from '@/lib/query-keys.ts';

export function balanceKey(account: string | undefined): unknown[] {
  return accountFactKey(account, 'balance');
}

/** GET /balance of the signed-in account; refreshed by invalidation after a purchase or the faucet. */
export function balanceQuery(api: Api, account: string | undefined, enabled: boolean) {
  return queryOptions({
    queryKey: balanceKey(account),
    queryFn: () => api.call('getBalance'),
    enabled,
    staleTime: 60_000,
  });
}
