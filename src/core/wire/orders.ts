import { z } from 'zod';
import { address, INT32_MAX, isoDate, zoneName } from './common.ts';
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
  type: z.literal('REGISTER'),
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

export const createdOrder = order.extend({ items: z.array(orderItem) });
export type CreatedOrder = z.infer<typeof createdOrder>;
export const orderDetails = z.object({ order, items: z.array(orderItem), payments: z.array(payment) });
export type OrderDetails = z.infer<typeof orderDetails>;
export const userOrders = z.array(orderItem);
