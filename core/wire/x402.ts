import { z } from 'zod';
import { address, zoneName } from './common.ts';
import { orderStatus } from './orders.ts';

/** Query of registerDomainX402 (production's): `durationInYears` 1–10, default 1 (production also reads `years`). */
const years = z.coerce.number({ error: 'Years must be a number' }).int('Years must be a whole number').min(1, 'At least one year').max(10, 'At most 10 years');
export const registerDomainX402Query = z.object({
  durationInYears: years.optional(),
  years: years.optional(),
  nftReceivingWalletAddress: address.optional(),
});
export type RegisterDomainX402Query = z.infer<typeof registerDomainX402Query>;

export const x402PurchaseParams = z.object({ normalizedDomainName: zoneName });

/** A paid request's answer (production's fields, plus our `orderId`). */
export const x402Purchase = z.object({
  status: z.literal('accepted'),
  message: z.string(),
  purchaseId: z.string(),
  domain: z.string(),
  buyerWallet: address,
  nftReceivingWalletAddress: address,
  estimatedCompletionSeconds: z.number(),
  orderId: z.string().nullable(),
});
export type X402Purchase = z.infer<typeof x402Purchase>;

/** Following a purchase (ours beyond production's fields): the order's status, and the refund when it failed. */
export const x402PurchaseStatus = x402Purchase.extend({
  orderStatus: orderStatus.nullable(),
  failureReason: z.string().nullable(),
  settlementTransaction: z.string().nullable(),
  refund: z.object({ transaction: z.string(), amount: z.string() }).nullable(),
});
export type X402PurchaseStatus = z.infer<typeof x402PurchaseStatus>;

/**
 * The 402's `PAYMENT-REQUIRED` (base64 JSON, x402 v2) as far as a client shows it before signing: what is paid, in
 * which token, to whom, on which chain, and for how long a signature stays valid. Loose, so the whole object can be
 * handed back to the x402 client unchanged.
 */
const x402PaymentRequirements = z.looseObject({
  scheme: z.string(),
  network: z.string().regex(/^eip155:\d+$/, 'Expected an EVM network (eip155:<chain id>)'),
  amount: z.string().regex(/^\d+$/, 'Expected an amount in base units'),
  asset: address,
  payTo: address,
  maxTimeoutSeconds: z.number().int().positive(),
  extra: z.looseObject({ name: z.string().optional(), version: z.string().optional() }).optional(),
});
export const x402PaymentRequired = z.looseObject({
  x402Version: z.number().int(),
  error: z.string().optional(),
  accepts: z.array(x402PaymentRequirements).min(1),
});
export type X402PaymentRequired = z.infer<typeof x402PaymentRequired>;
