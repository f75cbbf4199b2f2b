import { queryOptions } from '@tanstack/react-query';
import type { Api } from '@/lib/api/use-api.ts';
import { accountKey } from '@/lib/query-keys.ts';

/** The same key and parse as the header badge, so both read one cached balance. */
export function balanceKey(account: string | undefined): unknown[] {
  return accountKey(account, 'balance');
}

export function balanceQuery(api: Api, account: string | undefined, enabled: boolean) {
  return queryOptions({
    queryKey: balanceKey(account),
    queryFn: () => api.call('getBalance'),
    enabled,
    staleTime: 60_000,
  });
}
