import { useMutation } from '@tanstack/react-query';
import type { CreatedOrder } from '#core/wire/orders.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import type { RegistrationRequest } from '../checkout-form.ts';
import { seedCreatedOrder } from '@/features/orders/index.ts';

/**
 * POST /orders/register-domain (or /records), signed by the wallet. The name's registration (its availability) and the
 * orders are read again by the refresh rule; the order page starts from the answer.
 */
export function useRegisterDomain(_domain: string, account: string | undefined) {
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: (request: RegistrationRequest): Promise<CreatedOrder> => signAndCall(request.operationId, request.payload),
    // The balance is charged when processing starts, not now: the order's end refreshes it.
    onSuccess: (order) => seedCreatedOrder(account, order),
  });
}
