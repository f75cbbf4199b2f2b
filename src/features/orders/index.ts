// The orders feature's public face for other features.
export { seedCreatedOrder } from './order-follower.ts';
