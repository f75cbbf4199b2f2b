import type { Handlers } from '../http/context.ts';
import type { Principal } from '../services.ts';
import { notFound, unauthorized } from '../domain-errors.ts';
import { createOrder } from '../orders/create-order.ts';
import { createRenewOrder, renewalQuote } from '../orders/renew-order.ts';
import { findOrder, itemsOf, paymentsOf, toOrder, toOrderItem } from '../orders/repository.ts';

function payer(principal: Principal | null): Principal {
  if (!principal) throw unauthorized();
  return principal;
}

export const orderHandlers: Handlers = {
  registerDomain: ({ input, principal, services }) => createOrder(services, payer(principal), input),
  registerWithRecords: ({ input, principal, services }) => createOrder(services, payer(principal), input),
  renewDomain: ({ input, principal, services }) => createRenewOrder(services, payer(principal), input),
  getRenewalQuote: ({ input, services }) => renewalQuote(services, input.normalizedDomainName),
  getOrder: async ({ params, principal, services }) => {
    const wallet = payer(principal).wallet.toLowerCase();
    const order = await findOrder(services.db, params.orderId ?? '');
    if (!order) throw notFound(`No order ${params.orderId}`);
    if (order.wallet_address !== wallet) throw unauthorized('This order belongs to another wallet');
    const [items, payments] = [await itemsOf(services.db, order.id), await paymentsOf(services.db, order.id)];
    return { order: toOrder(order), items: items.map(toOrderItem), payments };
  },
};
