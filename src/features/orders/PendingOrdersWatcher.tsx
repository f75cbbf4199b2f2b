import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/api/use-api.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useToast } from '@/ui/index.ts';
import { refreshAfterOrder } from './api/refresh-after-order.ts';
import { orderFollower } from './order-follower.ts';
import { useAccountReader } from './use-account-reader.ts';

/**
 * Mounted by the layout on every page: connects the order follower (order-follower.ts) to the service, the
 * query cache and the toasts, as the account that can read now. The follower does the rest.
 */
export default function PendingOrdersWatcher() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const { account, canRead } = useAccountReader();
  // A sign-in reconnects it, which asks at once about every order it has no fresh answer for (one that failed, say).
  const { status } = useWalletSession();

  useEffect(
    () =>
      orderFollower.connect(canRead ? { account } : undefined, {
        fetchOrder: (orderId) => api.call('getOrder', { params: { orderId } }),
        refresh: (_reader, domains) => void refreshAfterOrder(queryClient, domains),
        toast,
      }),
    [api, queryClient, toast, account, canRead, status],
  );
  return null;
}
