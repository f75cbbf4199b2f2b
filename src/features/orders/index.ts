// The orders feature's public face for other features.
export { followCreatedOrder, seedCreatedOrder } from './order-follower.ts';
