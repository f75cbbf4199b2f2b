import { useSyncExternalStore } from 'react';
import { browserStorage } from '@/lib/browser-storage.ts';

/** An order this browser started and still follows until it finishes. */
export interface PendingOrder {
  id: string;
  /** The domain(s) it registers, for the toast; may be empty when unknown. */
  domains: string[];
  addedAt: number;
}

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const PREFIX = 'namefi.dashboard.pendingOrders.';
/** An order that is still not finished after a week is not worth a request every 5 s. */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const EMPTY: readonly PendingOrder[] = Object.freeze([]);

function isPendingOrder(value: unknown): value is PendingOrder {
  const v = value as PendingOrder;
  return !!v && typeof v.id === 'string' && Array.isArray(v.domains) && typeof v.addedAt === 'number';
}

/**
 * Pending orders per account, kept in localStorage so a reload (or another tab) keeps following them.
 * Lists are cached per account so React sees a stable array until something changes.
 */
export function createPendingOrdersStore(storage: KeyValueStorage | undefined = browserStorage(), now: () => number = Date.now) {
  const listeners = new Set<() => void>();
  const cache = new Map<string, readonly PendingOrder[]>();
  const keyOf = (account: string) => PREFIX + account.toLowerCase();

  function read(account: string): readonly PendingOrder[] {
    const key = keyOf(account);
    const cached = cache.get(key);
    if (cached) return cached;
    let list: readonly PendingOrder[] = EMPTY;
    try {
      const parsed: unknown = JSON.parse(storage?.getItem(key) ?? '[]');
      if (Array.isArray(parsed)) {
        const fresh = parsed.filter(isPendingOrder).filter((o) => now() - o.addedAt < MAX_AGE_MS);
        if (fresh.length > 0) list = fresh;
      }
    } catch {
      // A damaged entry is forgotten rather than breaking every page.
    }
    cache.set(key, list);
    return list;
  }

  function write(account: string, list: PendingOrder[]): void {
    const key = keyOf(account);
    cache.set(key, list.length ? list : EMPTY);
    try {
      if (list.length) storage?.setItem(key, JSON.stringify(list));
      else storage?.removeItem(key);
    } catch {
      // Storage full or private mode: followed for this visit only.
    }
    for (const listener of listeners) listener();
  }

  return {
    list: read,
    add(account: string, order: { id: string; domains: string[] }): void {
      const current = read(account);
      if (current.some((o) => o.id === order.id)) return;
      write(account, [...current, { id: order.id, domains: order.domains, addedAt: now() }]);
    },
    remove(account: string, orderId: string): void {
      const current = read(account);
      if (!current.some((o) => o.id === orderId)) return;
      write(account, current.filter((o) => o.id !== orderId));
    },
    has(account: string, orderId: string): boolean {
      return read(account).some((o) => o.id === orderId);
    },
    /** Another tab changed storage: drop the cache so the next read sees it. */
    reload(): void {
      cache.clear();
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type PendingOrdersStore = ReturnType<typeof createPendingOrdersStore>;

export const pendingOrders = createPendingOrdersStore();

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key.startsWith(PREFIX)) pendingOrders.reload();
  });
}

export function usePendingOrders(account: string | undefined): readonly PendingOrder[] {
  return useSyncExternalStore(
    pendingOrders.subscribe,
    () => (account ? pendingOrders.list(account) : EMPTY),
    () => EMPTY,
  );
}
