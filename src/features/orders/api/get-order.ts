import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { isTerminal, type CreatedOrder, type OrderDetails } from '@/core/wire/orders.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { accountKey } from '@/lib/query-keys.ts';
import { detailsFromCreated } from '../order-seed.ts';
import { nextPollDelay, POLL_INTERVAL_MS } from '../poll-policy.ts';

export function orderKey(account: string | undefined, orderId: string): unknown[] {
  return accountKey(account, 'order', orderId);
}

/** Failed polls in a row per order: TanStack resets its own failure count on every new fetch. */
const errorStreaks = new Map<string, number>();
/** Orders whose cache holds only the create answer: their first GET comes sooner (FIRST_POLL_MS). */
const fromCreate = new Set<string>();

function finished(data: OrderDetails | undefined): boolean {
  return !!data && isTerminal(data.order.status);
}

function isHidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden';
}

/**
 * GET /orders/{id}, polled by the policy of nextPollDelay: soon after creation, then every 5 s until a terminal status and not
 * one request more. TanStack pauses the interval while the tab is hidden and refetches when it shows
 * again; a terminal order is never stale, so no remount or focus asks for it again.
 */
export function orderQuery(api: Api, account: string | undefined, orderId: string, enabled: boolean) {
  return queryOptions({
    queryKey: orderKey(account, orderId),
    queryFn: async (): Promise<OrderDetails> => {
      try {
        const details = await api.call('getOrder', { params: { orderId } });
        errorStreaks.delete(orderId);
        fromCreate.delete(orderId);
        return details;
      } catch (error) {
        errorStreaks.set(orderId, (errorStreaks.get(orderId) ?? 0) + 1);
        throw error;
      }
    },
    enabled,
    // The poll is its own retry, spaced by the back-off.
    retry: false,
    // A running order is fresh for (almost) one interval: a second view mounting (page <-> watcher)
    // joins the cadence instead of asking again at once. A finished order is final.
    staleTime: (query) => (finished(query.state.data) ? Infinity : POLL_INTERVAL_MS - 500),
    refetchOnMount: (query) => !finished(query.state.data),
    // Focus events come from the tab showing again (visibilitychange): resume at once, since the
    // policy returned no interval while the tab was hidden.
    refetchOnWindowFocus: (query) => (finished(query.state.data) ? false : 'always'),
    refetchInterval: (query) =>
      nextPollDelay({
        status: query.state.data?.order.status,
        errorCount: errorStreaks.get(orderId) ?? 0,
        hidden: isHidden(),
        fromCreate: fromCreate.has(orderId),
      }),
    refetchIntervalInBackground: false,
  });
}

/**
 * Starts the order's cache from the create answer (see detailsFromCreated): the page that opens next
 * shows it at once, asks for the order FIRST_POLL_MS later, and every 5 s after that.
 */
export function seedCreatedOrder(queryClient: QueryClient, account: string | undefined, created: CreatedOrder): void {
  const details = detailsFromCreated(created);
  if (!details) return;
  fromCreate.add(created.id);
  queryClient.setQueryData(orderKey(account, created.id), details);
}
