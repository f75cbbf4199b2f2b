import { createStore } from '@/lib/store.ts';

/** Set once the start-up reconnection has finished, so the island opens no modal RainbowKit then closes. */
export const startupReconnectDone = createStore(false);
