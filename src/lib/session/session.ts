import { config } from '../config.ts';
import { createStore } from '../store.ts';
import { createSessionStore } from './session-store.ts';

/** The one session of this tab, bound to the configured service. */
export const sessionStore = createSessionStore(config.apiBaseUrl);

/**
 * A request to open RainbowKit's connect/sign-in modal from code outside the wallet island (the API
 * client after a 401, useRequireSignIn). It stays pending until the island is loaded and opens it.
 */
export const signInRequest = createStore({ pending: false });
export function requestSignIn(): void {
  signInRequest.set({ pending: true });
}

/** Whether RainbowKit's connect/sign-in modal is open (mirrored by the island). */
export const authModalOpen = createStore(false);
