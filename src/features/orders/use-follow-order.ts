import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isTerminal, type OrderDetails } from '@/core/wire/orders.ts';
import { refreshAfterOrder } from './api/refresh-after-order.ts';
import { pendingOrders } from './pending-orders.ts';

/**
 * Keeps the pending-orders list in step with what an order page sees: a running order is remembered
 * (so a reload or another page keeps following it), a finished one is forgotten and the data it
 * changed (balance, domains, orders) is re-read.
 */
export function useFollowOrder(account: string | undefined, details: OrderDetails | undefined): void {
  const queryClient = useQueryClient();
  const id = details?.order.id;
  const status = details?.order.status;
  const domains = details?.items.map((i) => i.normalizedDomainName).join(',') ?? '';
  const finishedAt = details?.order.finishedAt;
  const refreshed = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!account || !id || !status) return;
    if (!isTerminal(status)) {
      pendingOrders.add(account, { id, domains: domains ? domains.split(',') : [] });
      return;
    }
    // An order that finished before its first answer was never pending here, but just changed the balance.
    const justFinished = !!finishedAt && Date.now() - Date.parse(finishedAt) < 60_000;
    if (pendingOrders.has(account, id) || (justFinished && refreshed.current !== id)) {
      pendingOrders.remove(account, id);
      refreshed.current = id;
      void refreshAfterOrder(queryClient, account, domains ? domains.split(',') : []);
    }
  }, [account, id, status, domains, finishedAt, queryClient]);
}
