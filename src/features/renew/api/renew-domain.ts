import { useMutation } from '@tanstack/react-query';
import type { CreatedOrder, RenewDomainInput } from '#core/wire/orders.ts';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import { followCreatedOrder } from '@/features/orders/index.ts';

/**
 * POST /orders/renew-domain, signed by the paying wallet (the holder or anyone giving it). The order is followed like a
 * registration's: when it ends, the balance, the domain list and the name's renewal quote (its expiry) are re-read.
 */
export function useRenewDomain(account: string | undefined) {
  const { signAndCall } = useSignedCall();
  return useMutation({
    mutationFn: (input: RenewDomainInput): Promise<CreatedOrder> => signAndCall('renewDomain', input),
    onSuccess: (order) => followCreatedOrder(account, order),
  });
}
