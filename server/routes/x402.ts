import type { Handlers } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { findPurchase, purchaseStatus } from '../x402/purchase-store.ts';
import { purchaseWithX402, railOf } from '../x402/purchase.ts';

export const x402Handlers: Handlers = {
  registerDomainX402: ({ input, params, principal, services, request }) =>
    purchaseWithX402({ services, input, name: params.normalizedDomainName ?? '', principal, request }),
  getX402Purchase: async ({ params, services }) => {
    railOf(services);
    const row = await findPurchase(services.db, params.purchaseId ?? '');
    if (!row) throw notFound(`No x402 purchase ${params.purchaseId}`);
    return purchaseStatus(services.db, row, services.config.ORDER_PROCESSING_MS);
  },
};
