import { queryOptions } from '@tanstack/react-query';
import { x402Key } from '@/lib/query-keys.ts';
import { isTerminal } from '#core/wire/orders.ts';
import type { X402PurchaseStatus } from '#core/wire/x402.ts';
import type { Api } from '@/lib/api/use-api.ts';

/** As GET /orders/{id}: the contract's 5 s poll until the order's status is terminal. */
const FOLLOW_INTERVAL_MS = 5_000;

/**
 * getX402Purchase (GET /x402/purchase/{id}, no credentials): follows a purchase made without signing in, whose order
 * the orders page cannot read, until its order finishes (or its payment was refunded).
 */
export function x402PurchaseQuery(api: Api, purchaseId: string | undefined) {
  return queryOptions({
    queryKey: x402Key('purchase', purchaseId),
    queryFn: (): Promise<X402PurchaseStatus> => api.call('getX402Purchase', { params: { purchaseId: purchaseId ?? '' } }),
    enabled: !!purchaseId,
    refetchInterval: (query) => (followDone(query.state.data) ? false : FOLLOW_INTERVAL_MS),
  });
}

export function followDone(status: X402PurchaseStatus | undefined): boolean {
  return !!status && (status.refund !== null || (status.orderStatus !== null && isTerminal(status.orderStatus)));
}
