/**
 * The orders this browser started and follows until they finish, remembered in localStorage per account, so a
 * reload or another tab keeps following them (order-follower.ts keeps them in its store and reads them here).
 */

/** An order this browser started and still follows until it finishes (localStorage, per account). */
export interface PendingOrder {
  id: string;
  /** The domain(s) it registers; may be empty when unknown. */
  domains: string[];
  addedAt: number;
}

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const PENDING_ORDERS_PREFIX = 'namefi.dashboard.pendingOrders.';
/** An order that is still not finished after a week is not worth a request every 5 s. */
const MAX_PENDING_AGE_MS = 7 * 24 * 60 * 60 * 1000;

function isPendingOrder(value: unknown): value is PendingOrder {
  const v = value as PendingOrder;
  return !!v && typeof v.id === 'string' && Array.isArray(v.domains) && typeof v.addedAt === 'number';
}

/** The account's remembered orders (lower-case account), those younger than a week; a damaged entry reads as none. */
export function readPendingOrders(storage: KeyValueStorage | undefined, lower: string, now: number): readonly PendingOrder[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(PENDING_ORDERS_PREFIX + lower) ?? '[]');
    if (Array.isArray(parsed)) return parsed.filter(isPendingOrder).filter((o) => now - o.addedAt < MAX_PENDING_AGE_MS);
  } catch {
    // A damaged entry is forgotten rather than breaking every page.
  }
  return [];
}

/** Remembers the account's orders (an empty list forgets the entry); storage full or private: kept for this visit only. */
export function writePendingOrders(storage: KeyValueStorage | undefined, lower: string, list: PendingOrder[]): void {
  try {
    if (list.length) storage?.setItem(PENDING_ORDERS_PREFIX + lower, JSON.stringify(list));
    else storage?.removeItem(PENDING_ORDERS_PREFIX + lower);
  } catch {
    // Storage full or private mode: followed for this visit only.
  }
}
