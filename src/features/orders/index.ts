// The orders feature's public face for other features.
export { followCreatedOrder, seedCreatedOrder } from './order-follower.ts';
// The account's orders as the orders page reads them (the refresh rule's test mounts it).
export { userOrdersQuery } from './api/get-user-orders.ts';
// What the dashboard reads again when an order finishes (the order watcher runs it; the refresh rule's test too).
export { refreshAfterOrder } from './api/refresh-after-order.ts';
