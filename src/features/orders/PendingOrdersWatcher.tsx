import { useEffect } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useMatch } from 'react-router';
import { isTerminal } from '@/core/wire/orders.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { useToast } from '@/ui/index.ts';
import { orderQuery } from './api/get-order.ts';
import { refreshAfterOrder } from './api/refresh-after-order.ts';
import { statusWords } from './order-view.ts';
import { pendingOrders, usePendingOrders } from './pending-orders.ts';
import { useAccountReader } from './use-account-reader.ts';

/**
 * Mounted by the layout on every page: follows this account's pending orders with the order page's
 * policy (one request per order per 5 s, paused while hidden), and says when one finishes. The order
 * open on screen is left to its page, so it is never asked for twice.
 */
export default function PendingOrdersWatcher() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const { account, canRead } = useAccountReader();
  const pending = usePendingOrders(account);
  const shownId = useMatch('/orders/:orderId')?.params.orderId;
  const followed = pending.filter((o) => o.id !== shownId);

  const results = useQueries({
    queries: followed.map((o) => orderQuery(api, account, o.id, canRead && !!account)),
  });

  const finished = results
    .map((r, i) => ({ result: r, pending: followed[i] }))
    .filter(({ result }) => result.data && isTerminal(result.data.order.status));

  // Runs after every render but acts once per order: the store forgets an order before it is toasted.
  useEffect(() => {
    if (!account) return;
    for (const { result, pending: p } of finished) {
      if (!result.data || !pendingOrders.has(account, p.id)) continue;
      pendingOrders.remove(account, p.id);
      const status = result.data.order.status;
      const domains = result.data.items.map((i) => i.normalizedDomainName);
      const what = domains.join(', ') || 'Your order';
      toast({
        tone: status === 'SUCCEEDED' ? 'success' : status === 'PARTIALLY_COMPLETED' ? 'info' : 'error',
        title: `${what}: ${statusWords(status).label.toLowerCase()}`,
        description: status === 'SUCCEEDED' ? 'The order finished. The domain is in your list.' : 'Open the order to see what happened.',
      });
      void refreshAfterOrder(queryClient, account, domains);
    }
  }, [finished, account, queryClient, toast]);

  return null;
}
