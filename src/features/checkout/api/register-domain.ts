import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedOrder } from '#core/wire/orders.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import type { RegistrationRequest } from '../checkout-form.ts';
import { availabilityKey } from '@/features/search/index.ts';
import { seedCreatedOrder } from '@/features/orders/index.ts';

/**
 * POST /orders/register-domain (or /records), signed by the wallet. Afterwards the name is no longer
 * available, so its cached availability is marked stale, and the order page starts from the answer.
 */
export function useRegisterDomain(domain: string, account: string | undefined) {
  const { signAndCall } = useSignedCall();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: RegistrationRequest): Promise<CreatedOrder> => signAndCall(request.operationId, request.payload),
    // The balance is charged when processing starts, not now: the order's end refreshes it.
    onSuccess: (order) => {
      seedCreatedOrder(account, order);
      // Marked stale without a refetch now: the page is leaving for the order.
      void queryClient.invalidateQueries({ queryKey: availabilityKey(domain), refetchType: 'none' });
    },
  });
}
