import { z } from 'zod';
import { address, INT32_MAX, isoDate, zoneName } from './common.ts';
import { addYears } from '../dates.ts';
import { zoneRecordInput, MAX_BATCH } from './dns.ts';

const TERMINAL_STATUSES = ['SUCCEEDED', 'FAILED', 'CANCELLED', 'PARTIALLY_COMPLETED'] as const;
const ORDER_STATUSES = ['CREATED', 'PROCESSING', ...TERMINAL_STATUSES] as const;
export const orderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatus>;
export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

const order = z.object({
  id: z.string(),
  status: orderStatus,
  amountInUSDCents: z.number().int(),
  nftWalletAddress: z.string(),
  nftChainId: z.number().int(),
  metadata: z.unknown(),
  createdAt: isoDate,
  updatedAt: isoDate,
  startedAt: isoDate.nullable(),
  finishedAt: isoDate.nullable(),
});
export type Order = z.infer<typeof order>;

const orderItem = z.object({
  id: z.string(),
  orderId: z.string(),
  normalizedDomainName: z.string(),
  type: z.enum(['REGISTER', 'RENEW']),
  durationInYears: z.number().int(),
  amountInUSDCents: z.number().int(),
  status: orderStatus,
  metadata: z.unknown(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type OrderItem = z.infer<typeof orderItem>;

const payment = z.object({
  id: z.string(),
  amountInUSDCents: z.number().int(),
  status: z.string(),
  paymentProvider: z.literal('CREDIT'),
  createdAt: isoDate,
});
export type Payment = z.infer<typeof payment>;

const chainId = z.number().int('A chain id is a whole number').positive('A chain id is positive').max(INT32_MAX, `A chain id is at most ${INT32_MAX}`);
const nftReceivingWallet = z.object({ walletAddress: address, chainId });
export const registerDomainInput = z.object({
  normalizedDomainName: zoneName,
  durationInYears: z.number().int('Years must be a whole number').min(1, 'At least one year').max(INT32_MAX, 'Too many years'),
  nftReceivingWallet: nftReceivingWallet.optional(),
});
export type RegisterDomainInput = z.infer<typeof registerDomainInput>;
export const registerWithRecordsInput = registerDomainInput.extend({
  records: z.array(zoneRecordInput).max(MAX_BATCH),
});

/** Renewals run 1 to 10 years at a time; the new expiry may lie at most this many years after now. */
export const RENEWAL_YEARS = { min: 1, max: 10 } as const;
export const renewDomainInput = z.object({
  normalizedDomainName: zoneName,
  durationInYears: z
    .number({ error: `durationInYears must be a whole number of years, ${RENEWAL_YEARS.min} to ${RENEWAL_YEARS.max}` })
    .int(`durationInYears must be a whole number of years, ${RENEWAL_YEARS.min} to ${RENEWAL_YEARS.max}`)
    .min(RENEWAL_YEARS.min, `durationInYears is at least ${RENEWAL_YEARS.min} year`)
    .max(RENEWAL_YEARS.max, `durationInYears is at most ${RENEWAL_YEARS.max} years`),
});
export type RenewDomainInput = z.infer<typeof renewDomainInput>;

export const renewalQuoteQuery = z.object({ normalizedDomainName: zoneName });
/**
 * What a renewal of a registered name would be (ours): its holder, its expiry, the yearly renewal price and the latest
 * expiry a renewal may reach, so a client says the price and the new date before the wallet opens, to anyone (a gift).
 */
export const renewalQuote = z.object({
  normalizedDomainName: z.string(),
  ownerAddress: z.string(),
  expiresAt: isoDate,
  renewalPriceInUSDCentsPerYear: z.number().int(),
  latestExpiresAt: isoDate,
  /** In redemption only: the one-off restore fee a renewal adds now (it brings the records back). */
  restoreFeeInUSDCents: z.number().int().optional(),
});
export type RenewalQuote = z.infer<typeof renewalQuote>;

/** How many years a renewal may add now: at most RENEWAL_YEARS.max, and no further than the latest expiry (0: none). */
export function maxRenewalYears(quote: Pick<RenewalQuote, 'expiresAt' | 'latestExpiresAt'>): number {
  let years = 0;
  while (years < RENEWAL_YEARS.max && addYears(new Date(quote.expiresAt), years + 1) <= new Date(quote.latestExpiresAt)) years += 1;
  return years;
}

/** The latest expiry a renewal may reach: RENEWAL_YEARS.max calendar years after `now`. */
export function latestExpiry(now: Date): Date {
  return addYears(now, RENEWAL_YEARS.max);
}

export const createdOrder = order.extend({ items: z.array(orderItem) });
export type CreatedOrder = z.infer<typeof createdOrder>;
export const orderDetails = z.object({ order, items: z.array(orderItem), payments: z.array(payment) });
export type OrderDetails = z.infer<typeof orderDetails>;
export const userOrders = z.array(orderItem);
