import { z } from 'zod';
import { safeText } from '../wire/text.ts';
import * as x402 from '../wire/x402.ts';
import { op } from './define.ts';

export const x402Operations = {
  registerDomainX402: op({ id: 'registerDomainX402', method: 'GET', path: '/x402/domain/{normalizedDomainName}', tag: 'x402', summary: 'Buy a name with a USD stablecoin payment (x402 v2, scheme exact): 402 with PAYMENT-REQUIRED, then a PAYMENT-SIGNATURE header', auth: 'optional', input: x402.registerDomainX402Query, params: x402.x402PurchaseParams, output: x402.x402Purchase, errors: [402, 403, 409], changes: { of: (request: { normalizedDomainName: string }) => request.normalizedDomainName, domain: ['registration'], account: ['balance', 'orders'] } }),
  getX402Purchase: op({ id: 'getX402Purchase', method: 'GET', path: '/x402/purchase/{purchaseId}', tag: 'x402', summary: 'Follow an x402 purchase: its order and any refund', auth: 'none', params: z.object({ purchaseId: safeText() }), output: x402.x402PurchaseStatus, errors: [403, 404] }),
};
