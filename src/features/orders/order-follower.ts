import { useEffect } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { isTerminal, type CreatedOrder, type OrderDetails } from '#core/wire/orders.ts';
import { browserStorage } from '@/lib/browser-storage.ts';
import type { ToastInput } from '@/ui/index.ts';
import { detailsFromCreated } from './order-seed.ts';
import { statusWords } from './order-view.ts';
import { PENDING_ORDERS_PREFIX, readPendingOrders, writePendingOrders, type KeyValueStorage, type PendingOrder } from './pending-orders.ts';
import { nextPollDelay, POLL_INTERVAL_MS } from './poll-policy.ts';

/**
 * The one place that follows orders: the order on screen and the orders this browser started, polled by
 * nextPollDelay until they finish; each finishes here exactly once (forgotten, its data re-read, and a toast
 * when it finished off screen). The order page and the layout's watcher only connect to it.
 */

/** What is known of one order, as one account reads it. */
export interface FollowedOrder {
  details?: OrderDetails;
  /** The last poll's error, until a poll answers again. */
  error?: unknown;
  /** Failed polls in a row since the last answer: the pause between polls grows with it. */
  errorStreak: number;
  /** The details are the create answer alone: the first GET comes sooner. */
  fromCreate: boolean;
  /** When the details were answered (or seeded). */
  answeredAt?: number;
  /** Finished here: forgotten, refreshed and maybe toasted, never again. */
  finished: boolean;
}

interface FollowerState {
  /** Whose orders are read (undefined account: an API key without a session); undefined while none can be. */
  reader: { account: string | undefined } | undefined;
  /** Order ids an order page shows, with how many pages show each. */
  onScreen: Record<string, number>;
  /** Pending orders per lower-case account, as remembered in localStorage. */
  pending: Record<string, readonly PendingOrder[]>;
  /** Per followedKey(account, orderId). */
  orders: Record<string, FollowedOrder>;
}

/** The follower's edges to the service, the query cache and the screen. */
export interface FollowerEdges {
  fetchOrder(orderId: string): Promise<OrderDetails>;
  /** Re-reads what a finished order changed: balance, domains, orders. */
  refresh(account: string, domains: string[]): void;
  toast(input: ToastInput): void;
}

export type { KeyValueStorage };

/** An order seen finished this recently (but not started here) still changed the balance just now. */
const JUST_FINISHED_MS = 60_000;
/** Details younger than this are fresh: a page opening on them joins the pace instead of asking at once. */
const FRESH_MS = POLL_INTERVAL_MS - 500;

export function followedKey(account: string | undefined, orderId: string): string {
  return `${account?.toLowerCase() ?? 'anonymous'}/${orderId}`;
}

const UNKNOWN: FollowedOrder = { errorStreak: 0, fromCreate: false, finished: false };

function domainsOf(details: OrderDetails): string[] {
  return details.items.map((i) => i.normalizedDomainName);
}

/** The toast for an order that finished while its page was not on screen. */
function finishedToast(details: OrderDetails): ToastInput {
  const status = details.order.status;
  const what = domainsOf(details).join(', ') || 'Your order';
  return {
    tone: status === 'SUCCEEDED' ? 'success' : status === 'PARTIALLY_COMPLETED' ? 'info' : 'error',
    title: `${what}: ${statusWords(status).label.toLowerCase()}`,
    description: status === 'SUCCEEDED' ? 'The order finished. The domain is in your list.' : 'Open the order to see what happened.',
  };
}

/** An order that finished a moment ago (but was not started here) still changed the balance just now. */
function justFinished(details: OrderDetails, now: number): boolean {
  const finishedAt = details.order.finishedAt;
  return !!finishedAt && now - Date.parse(finishedAt) < JUST_FINISHED_MS;
}

/** How many order pages show each order, after one more (`by` 1) or one fewer (-1) shows `id`. */
function countedOnScreen(onScreen: Record<string, number>, id: string, by: number): Record<string, number> {
  const next = { ...onScreen };
  const n = (next[id] ?? 0) + by;
  if (n > 0) next[id] = n;
  else delete next[id];
  return next;
}

/** One timer per followed order: the next poll, replaced when a new one is set. */
function pollTimers() {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const stop = (key: string) => {
    clearTimeout(timers.get(key));
    timers.delete(key);
  };
  return {
    has: (key: string) => timers.has(key),
    keys: () => timers.keys(),
    stop,
    stopAll() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
    /** Runs `run` after `delay`, in place of the order's timer before. */
    set(key: string, delay: number, run: () => void) {
      stop(key);
      timers.set(
        key,
        setTimeout(() => {
          timers.delete(key);
          run();
        }, delay),
      );
    },
  };
}

export interface FollowerOptions {
  storage?: KeyValueStorage;
  now?: () => number;
  isHidden?: () => boolean;
}

/**
 * What the follower knows, in one store the pages read: whose orders, which are on screen, the pending orders of
 * each account (read from storage once), and each followed order's details and errors.
 */
function followerState(storage: KeyValueStorage | undefined, now: () => number) {
  const store = createStore<FollowerState>(() => ({ reader: undefined, onScreen: {}, pending: {}, orders: {} }));

  const view = (key: string): FollowedOrder | undefined => store.getState().orders[key];
  function update(key: string, change: Partial<FollowedOrder>): void {
    store.setState((s) => ({
      orders: { ...s.orders, [key]: { ...UNKNOWN, ...s.orders[key], ...change } },
    }));
  }

  /** The account's pending orders: read from storage once, then kept in the store. */
  function pendingOf(account: string): readonly PendingOrder[] {
    const lower = account.toLowerCase();
    const known = store.getState().pending[lower];
    if (known) return known;
    const list = readPendingOrders(storage, lower, now());
    store.setState((s) => ({ pending: { ...s.pending, [lower]: list } }));
    return list;
  }

  function savePending(account: string, list: PendingOrder[]): void {
    const lower = account.toLowerCase();
    store.setState((s) => ({ pending: { ...s.pending, [lower]: list } }));
    writePendingOrders(storage, lower, list);
  }

  /** The orders to follow now, by key: those on screen and the reader's pending ones. */
  function followed(): Map<string, string> {
    const out = new Map<string, string>();
    const reader = store.getState().reader;
    if (!reader) return out;
    const { onScreen } = store.getState();
    for (const id of Object.keys(onScreen)) out.set(followedKey(reader.account, id), id);
    if (reader.account) for (const o of pendingOf(reader.account)) out.set(followedKey(reader.account, o.id), o.id);
    return out;
  }

  return { store, view, update, pendingOf, savePending, followed };
}

/**
 * The follower: polls each followed order at the pace nextPollDelay sets, one request at a time, and settles it
 * after each answer; what it knows is in followerState's store.
 */
export function createOrderFollower({
  storage = browserStorage(),
  now = Date.now,
  isHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden',
}: FollowerOptions = {}) {
  const { store, view, update, pendingOf, savePending, followed } = followerState(storage, now);
  const timers = pollTimers();
  const inFlight = new Set<string>();
  let edges: FollowerEdges | undefined;

  function schedule(key: string, orderId: string): void {
    timers.stop(key);
    const known = view(key);
    const delay = nextPollDelay({
      status: known?.details?.order.status,
      errorCount: known?.errorStreak ?? 0,
      hidden: isHidden(),
      fromCreate: known?.fromCreate,
    });
    if (delay === false) return;
    timers.set(key, delay, () => void poll(key, orderId));
  }

  async function poll(key: string, orderId: string): Promise<void> {
    if (!edges || inFlight.has(key)) return;
    timers.stop(key);
    inFlight.add(key);
    try {
      const details = await edges.fetchOrder(orderId);
      update(key, { details, error: undefined, errorStreak: 0, fromCreate: false, answeredAt: now() });
    } catch (error) {
      update(key, { error, errorStreak: (view(key)?.errorStreak ?? 0) + 1 });
    } finally {
      inFlight.delete(key);
    }
    // The account may have changed while the answer was on its way: then this order is no longer ours to follow.
    if (!followed().has(key)) return;
    settle(key, orderId);
    if (followed().has(key)) schedule(key, orderId);
  }

  /**
   * Keeps the pending list in step with what is known: a running order on screen is remembered (a reload or
   * another page keeps following it); a finished one is finished once.
   */
  function settle(key: string, orderId: string): void {
    const account = store.getState().reader?.account;
    const known = view(key);
    if (!account || !known?.details) return;
    const details = known.details;
    const onScreen = (store.getState().onScreen[orderId] ?? 0) > 0;
    if (!isTerminal(details.order.status)) {
      const list = pendingOf(account);
      if (onScreen && !list.some((o) => o.id === orderId)) {
        savePending(account, [...list, { id: orderId, domains: domainsOf(details), addedAt: now() }]);
      }
      return;
    }
    if (known.finished || !edges) return;
    const wasPending = pendingOf(account).some((o) => o.id === orderId);
    // An order that finished before its first answer was never pending, but just changed the balance.
    if (!wasPending && !(onScreen && justFinished(details, now()))) return;
    update(key, { finished: true });
    if (wasPending) savePending(account, pendingOf(account).filter((o) => o.id !== orderId));
    edges.refresh(account, domainsOf(details));
    // On its page the order's status says it already.
    if (wasPending && !onScreen) edges.toast(finishedToast(details));
  }

  /** Starts what is newly followed and stops what no longer is. */
  function resync(): void {
    const wanted = followed();
    for (const key of timers.keys()) if (!wanted.has(key)) timers.stop(key);
    for (const [key, orderId] of wanted) {
      if (timers.has(key) || inFlight.has(key)) continue;
      settle(key, orderId);
      const known = view(key);
      if (known?.details && isTerminal(known.details.order.status)) continue;
      const fresh = !!known?.details && known.answeredAt !== undefined && now() - known.answeredAt < FRESH_MS;
      if (fresh) schedule(key, orderId);
      else void poll(key, orderId);
    }
  }

  return {
    store,
    /** The layout connects the follower to the service and the screen as `reader` (or no one). */
    connect(reader: { account: string | undefined } | undefined, connected: FollowerEdges): () => void {
      edges = connected;
      store.setState({ reader });
      resync();
      return () => {
        if (edges === connected) edges = undefined;
        store.setState({ reader: undefined });
        timers.stopAll();
      };
    },
    /** An order page shows this order: it is followed (and remembered while running) until the page goes. */
    watch(orderId: string): () => void {
      const count = (id: string, by: number) => store.setState((s) => ({ onScreen: countedOnScreen(s.onScreen, id, by) }));
      count(orderId, 1);
      resync();
      return () => {
        count(orderId, -1);
        resync();
      };
    },
    /** The create answer: its page shows it at once and asks for the order a moment later (FIRST_POLL_MS). */
    seed(account: string | undefined, created: CreatedOrder): void {
      const details = detailsFromCreated(created);
      if (details) update(followedKey(account, created.id), { details, fromCreate: true, answeredAt: now() });
    },
    /**
     * An order made where its page is not shown (a renewal from its dialog): seeded, and remembered as pending, so it
     * is followed on any page until it ends, and its end re-reads what it changed.
     */
    follow(account: string | undefined, created: CreatedOrder): void {
      this.seed(account, created);
      if (!account) return;
      const list = pendingOf(account).filter((o) => o.id !== created.id);
      savePending(account, [...list, { id: created.id, domains: created.items.map((i) => i.normalizedDomainName), addedAt: now() }]);
      resync();
    },
    /** The tab was hidden (nothing is asked) or shown again (every running order is asked at once). */
    visibilityChanged(): void {
      if (isHidden()) {
        timers.stopAll();
        return;
      }
      for (const [key, orderId] of followed()) {
        const status = view(key)?.details?.order.status;
        if (status === undefined || !isTerminal(status)) void poll(key, orderId);
      }
    },
    /** Another tab changed the remembered orders: read them again. */
    storageChanged(): void {
      store.setState({ pending: {} });
      resync();
    },
  };
}


export const orderFollower = createOrderFollower();

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key.startsWith(PENDING_ORDERS_PREFIX)) orderFollower.storageChanged();
  });
  document.addEventListener('visibilitychange', () => orderFollower.visibilityChanged());
}

/** Called by the checkout with the create answer, before it opens the order's page. */
export function seedCreatedOrder(account: string | undefined, created: CreatedOrder): void {
  orderFollower.seed(account, created);
}

/** Follows an order created away from its page until it ends (see `follow`). */
export function followCreatedOrder(account: string | undefined, created: CreatedOrder): void {
  orderFollower.follow(account, created);
}

/**
 * The order page's view of one order, as `account` reads it, followed while the page shows it. The follower learns
 * of an account switch an effect later than the page: until then it shows nothing rather than the other account's order.
 */
export function useFollowOrder(orderId: string, account: string | undefined): FollowedOrder | undefined {
  useEffect(() => (orderId ? orderFollower.watch(orderId) : undefined), [orderId]);
  return useStore(orderFollower.store, (s) =>
    s.reader && orderId && followedKey(s.reader.account, orderId) === followedKey(account, orderId) ? s.orders[followedKey(account, orderId)] : undefined,
  );
}
