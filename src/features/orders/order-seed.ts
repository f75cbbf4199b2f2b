import type { CreatedOrder, OrderDetails } from '#core/wire/orders.ts';

/**
 * What `GET /orders/{id}` would answer right after the order was created, from the create answer itself,
 * so the order page starts from it and asks its first question one poll interval later, not at once.
 * Only a CREATED order qualifies: nothing is charged before PROCESSING, so its payments are known to be
 * none. Any other status (a service that moves faster) is left for the page to read at once.
 */
export function detailsFromCreated(created: CreatedOrder): OrderDetails | undefined {
  if (created.status !== 'CREATED') return undefined;
  const { items, ...order } = created;
  return { order, items, payments: [] };
}
