import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { Handlers } from '../http/context.ts';
import { HttpError, httpErrorOf } from '../http/errors.ts';
import { WithHeaders } from '../http/router.ts';
import { DomainError, notFound } from '../domain-errors.ts';
import { PAYMENT_REQUIRED, PAYMENT_RESPONSE, PAYMENT_SIGNATURE, PAYMENT_SIGNATURE_ALIAS } from '../x402/headers.ts';
import { findPurchase, purchaseStatus } from '../x402/purchase-store.ts';
import { purchaseWithX402, railOf, type PaymentRefusal } from '../x402/purchase.ts';

export const x402Handlers: Handlers = {
  // x402 over HTTP: the payment comes in a header, a refusal's requirements go out in PAYMENT-REQUIRED and a
  // settlement in PAYMENT-RESPONSE, each beside the JSON body.
  registerDomainX402: async ({ input, params, principal, services, request }) => {
    try {
      const { purchase, settlement } = await purchaseWithX402({
        services,
        input,
        name: params.normalizedDomainName ?? '',
        principal,
        paymentSignature: request.headers.get(PAYMENT_SIGNATURE) ?? request.headers.get(PAYMENT_SIGNATURE_ALIAS),
        resourceUrl: request.url,
      });
      return new WithHeaders(purchase, { [PAYMENT_RESPONSE]: encodePaymentResponseHeader(settlement) });
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'payment-required') {
        const { status, message, data } = httpErrorOf(error);
        throw new HttpError(status, message, data, { [PAYMENT_REQUIRED]: encodePaymentRequiredHeader((data as PaymentRefusal).paymentRequired) });
      }
      throw error;
    }
  },
  getX402Purchase: async ({ params, services }) => {
    railOf(services);
    const row = await findPurchase(services.db, params.purchaseId ?? '');
    if (!row) throw notFound(`No x402 purchase ${params.purchaseId}`);
    return purchaseStatus(services.db, row, services.config.ORDER_PROCESSING_MS);
  },
};
