import { browserStorage as storage } from '../browser-storage.ts';

/**
 * localStorage access that never throws: private windows and tests without a DOM simply forget.
 * Keys are namespaced so the dashboard never collides with a wallet's own storage.
 */
const PREFIX = 'namefi.dashboard.';

export function readStored<T>(key: string): T | undefined {
  const raw = storage()?.getItem(PREFIX + key);
  if (raw == null) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    if (value === undefined) storage()?.removeItem(PREFIX + key);
    else storage()?.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Quota or privacy mode: the value lives in memory for this visit only.
  }
}

export const STORAGE_KEYS = {
  serviceUrl: 'serviceUrl',
  apiKey: 'apiKey',
  delegated: 'delegatedAccount',
  session: 'session',
  theme: 'theme',
} as const;
