// The orders feature's public face for other features.
export { seedCreatedOrder } from './api/get-order.ts';
