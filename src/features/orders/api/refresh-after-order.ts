import type { QueryClient } from '@tanstack/react-query';
import { accountKey, availabilityKey, renewalQuoteKey } from '@/lib/query-keys.ts';

/**
 * A finished order changes the balance (charged or refunded), the domain list and the order list, and a renewal its
 * name's expiry.
 * Only those are re-read: the finished order itself is final and never asked for again.
 */
export function refreshAfterOrder(queryClient: QueryClient, account: string | undefined, domains: string[]): Promise<unknown> {
  return Promise.all([
    ...['balance', 'domains', 'orders'].map((part) => queryClient.invalidateQueries({ queryKey: accountKey(account, part) })),
    ...domains.map((domain) => queryClient.invalidateQueries({ queryKey: availabilityKey(domain), refetchType: 'none' })),
    ...domains.map((domain) => queryClient.invalidateQueries({ queryKey: renewalQuoteKey(domain) })),
  ]);
}
