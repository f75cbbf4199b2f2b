import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreatedOrder, OrderDetails, OrderStatus } from '#core/wire/orders.ts';
import type { ToastInput } from '@/ui/index.ts';
import { createOrderFollower, followedKey, type KeyValueStorage } from './order-follower.ts';
import { FIRST_POLL_MS, MAX_POLL_BACKOFF_MS, POLL_INTERVAL_MS } from './poll-policy.ts';

const ALICE = '0xAbC0000000000000000000000000000000000001';
const BOB = '0xbbb0000000000000000000000000000000000002';
const KEY_PREFIX = 'namefi.dashboard.pendingOrders.';
const WEEK = 7 * 24 * 3600 * 1000;

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

function created(id: string, domain: string): CreatedOrder {
  const t = new Date().toISOString();
  return {
    id, status: 'CREATED', amountInUSDCents: 1000, nftWalletAddress: ALICE, nftChainId: 31337, metadata: null,
    createdAt: t, updatedAt: t, startedAt: null, finishedAt: null,
    items: [{ id: `${id}-i`, orderId: id, normalizedDomainName: domain, type: 'REGISTER', durationInYears: 1, amountInUSDCents: 1000, status: 'CREATED', metadata: null, createdAt: t, updatedAt: t }],
  };
}

/** The service at the follower's edge: each order's status as the test sets it, and every GET it was asked. */
function fakeService() {
  const orders = new Map<string, { domain: string; status: OrderStatus; finishedAt: string | null; failing: boolean }>();
  const asked: { id: string; at: number }[] = [];
  let latencyMs = 0;
  return {
    asked,
    /** How long each answer takes from now on. */
    slow(ms: number) {
      latencyMs = ms;
    },
    askedFor: (id: string) => asked.filter((a) => a.id === id).map((a) => a.at),
    add(id: string, domain: string, status: OrderStatus = 'PROCESSING') {
      orders.set(id, { domain, status, finishedAt: null, failing: false });
    },
    finish(id: string, status: OrderStatus = 'SUCCEEDED', at = new Date()) {
      Object.assign(orders.get(id)!, { status, finishedAt: at.toISOString() });
    },
    failing(id: string, failing: boolean) {
      orders.get(id)!.failing = failing;
    },
    fetchOrder: async (id: string): Promise<OrderDetails> => {
      asked.push({ id, at: Date.now() });
      if (latencyMs) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      const o = orders.get(id);
      if (!o || o.failing) throw new Error(o ? 'Service unavailable' : 'Not found');
      const base = created(id, o.domain);
      const { items, ...order } = base;
      return { order: { ...order, status: o.status, finishedAt: o.finishedAt }, items: items.map((i) => ({ ...i, status: o.status })), payments: [] };
    },
  };
}

function setup(storage = memoryStorage()) {
  let hidden = false;
  const service = fakeService();
  const refreshed: { account: string; domains: string[] }[] = [];
  const toasts: ToastInput[] = [];
  const follower = createOrderFollower({ storage, isHidden: () => hidden });
  const edges = {
    fetchOrder: service.fetchOrder,
    refresh: (account: string, domains: string[]) => void refreshed.push({ account, domains }),
    toast: (input: ToastInput) => void toasts.push(input),
  };
  return {
    follower, service, storage, refreshed, toasts,
    connect: (account: string | undefined) => follower.connect({ account }, edges),
    setHidden(value: boolean) {
      hidden = value;
      follower.visibilityChanged();
    },
    view: (account: string | undefined, id: string) => follower.store.getState().orders[followedKey(account, id)],
    remembered: (account: string) => JSON.parse(storage.getItem(KEY_PREFIX + account.toLowerCase()) ?? '[]') as { id: string }[],
  };
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('order follower: polling', () => {
  it('asks for a created order soon after, then every 5 s, and never again once it finished', async () => {
    const t = setup();
    t.connect(ALICE);
    t.service.add('o1', 'a.com', 'CREATED');
    t.follower.seed(ALICE, created('o1', 'a.com'));
    t.follower.watch('o1');
    expect(t.service.asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(FIRST_POLL_MS);
    expect(t.service.askedFor('o1')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3 * POLL_INTERVAL_MS);
    expect(gaps(t.service.askedFor('o1'))).toEqual([5000, 5000, 5000]);
    t.service.finish('o1');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.view(ALICE, 'o1')?.details?.order.status).toBe('SUCCEEDED');
    const asked = t.service.asked.length;
    await vi.advanceTimersByTimeAsync(10 * MAX_POLL_BACKOFF_MS);
    t.setHidden(true);
    t.setHidden(false);
    expect(t.service.asked).toHaveLength(asked);
  });

  it('backs off as the error streak grows, up to a minute, and returns to 5 s after a good answer', async () => {
    const t = setup();
    t.service.add('o1', 'a.com');
    t.service.failing('o1', true);
    t.connect(ALICE);
    t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(10_000 + 20_000 + 40_000 + 60_000 + 60_000);
    expect(gaps(t.service.askedFor('o1'))).toEqual([10_000, 20_000, 40_000, 60_000, 60_000]);
    expect(t.view(ALICE, 'o1')?.errorStreak).toBe(6);
    expect(t.view(ALICE, 'o1')?.details).toBeUndefined();
    expect(t.view(ALICE, 'o1')?.error).toBeInstanceOf(Error);

    t.service.failing('o1', false);
    await vi.advanceTimersByTimeAsync(60_000 + 2 * POLL_INTERVAL_MS);
    expect(gaps(t.service.askedFor('o1')).slice(-3)).toEqual([60_000, 5000, 5000]);
    expect(t.view(ALICE, 'o1')).toMatchObject({ errorStreak: 0, error: undefined });
    expect(t.view(ALICE, 'o1')?.details?.order.status).toBe('PROCESSING');

    // A failure after answers keeps the last details and starts a new streak at 10 s.
    t.service.failing('o1', true);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS + 10_000);
    expect(gaps(t.service.askedFor('o1')).slice(-2)).toEqual([5000, 10_000]);
    expect(t.view(ALICE, 'o1')?.details?.order.status).toBe('PROCESSING');
    expect(t.view(ALICE, 'o1')?.errorStreak).toBe(2);
  });

  it('asks nothing while the tab is hidden, and asks at once when it shows again', async () => {
    const t = setup();
    t.service.add('o1', 'a.com');
    t.connect(ALICE);
    t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.service.askedFor('o1')).toHaveLength(2);

    t.setHidden(true);
    await vi.advanceTimersByTimeAsync(10 * MAX_POLL_BACKOFF_MS);
    expect(t.service.askedFor('o1')).toHaveLength(2);

    t.setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.service.askedFor('o1')).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(gaps(t.service.askedFor('o1')).at(-1)).toBe(5000);

    // Hidden while a poll is on its way: its answer is kept, and asks nothing more.
    t.service.slow(1000);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.service.askedFor('o1')).toHaveLength(5);
    t.setHidden(true);
    await vi.advanceTimersByTimeAsync(10 * MAX_POLL_BACKOFF_MS);
    expect(t.service.askedFor('o1')).toHaveLength(5);
    expect(t.view(ALICE, 'o1')?.answeredAt).toBe(t.service.askedFor('o1')[4] + 1000);
  });

  it('asks once per interval for an order both on its page and remembered as pending', async () => {
    const t = setup();
    t.service.add('o1', 'a.com');
    t.connect(ALICE);
    const leave = t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.remembered(ALICE).map((o) => o.id)).toEqual(['o1']);
    leave();
    // Off its page it is still followed as pending, at the same pace.
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(2 * POLL_INTERVAL_MS);
    expect(gaps(t.service.askedFor('o1'))).toEqual([5000, 5000, 5000]);
  });

  it('reads with an API key and no session, remembering nothing', async () => {
    const t = setup();
    t.service.add('o1', 'a.com');
    t.connect(undefined);
    t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.service.askedFor('o1')).toHaveLength(2);
    expect(t.view(undefined, 'o1')?.details?.order.status).toBe('PROCESSING');
    expect(t.storage.data.size).toBe(0);
  });

  it('asks nothing until the layout connects it, nor after it disconnects', async () => {
    const t = setup();
    t.service.add('o1', 'a.com');
    t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.service.asked).toEqual([]);
    const disconnect = t.connect(ALICE);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.service.asked).toHaveLength(1);
    disconnect();
    await vi.advanceTimersByTimeAsync(MAX_POLL_BACKOFF_MS);
    expect(t.service.asked).toHaveLength(1);
  });
});

describe('order follower: finishing', () => {
  it('finishes an order on its page once: forgotten and refreshed, without a toast', async () => {
    const t = setup();
    t.service.add('o1', 'a.com');
    t.connect(ALICE);
    const leave = t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.remembered(ALICE).map((o) => o.id)).toEqual(['o1']);

    t.service.finish('o1');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.refreshed).toEqual([{ account: ALICE, domains: ['a.com'] }]);
    expect(t.toasts).toEqual([]);
    expect(t.storage.data.size).toBe(0);

    // Seen again by every way in (page again, tab shown, another tab's storage): nothing more happens.
    leave();
    t.follower.watch('o1');
    t.setHidden(true);
    t.setHidden(false);
    t.follower.storageChanged();
    await vi.advanceTimersByTimeAsync(MAX_POLL_BACKOFF_MS);
    expect(t.refreshed).toHaveLength(1);
    expect(t.toasts).toEqual([]);
    expect(t.service.askedFor('o1')).toHaveLength(2);
  });

  it('finishes a pending order off its page once, with the toast; opening its page afterwards does not finish it again', async () => {
    const t = setup();
    t.service.add('o1', 'a.com');
    t.connect(ALICE);
    const leave = t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(0);
    leave();
    t.service.finish('o1');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.toasts).toEqual([
      { tone: 'success', title: 'a.com: succeeded', description: 'The order finished. The domain is in your list.' },
    ]);
    expect(t.refreshed).toEqual([{ account: ALICE, domains: ['a.com'] }]);
    expect(t.storage.data.size).toBe(0);

    t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.toasts).toHaveLength(1);
    expect(t.refreshed).toHaveLength(1);
    expect(t.service.askedFor('o1')).toHaveLength(2);
  });

  it.each([
    ['FAILED', 'error', 'a.com: failed'],
    ['PARTIALLY_COMPLETED', 'info', 'a.com: partially completed'],
  ] as const)('toasts a %s order as %s, pointing to the order', async (status, tone, title) => {
    const t = setup();
    t.service.add('o1', 'a.com');
    t.connect(ALICE);
    const leave = t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(0);
    leave();
    t.service.finish('o1', status);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.toasts).toEqual([{ tone, title, description: 'Open the order to see what happened.' }]);
  });

  it('refreshes for an order seen on its page just after it finished, but not for one finished long ago', async () => {
    const t = setup();
    t.service.add('fresh', 'a.com');
    t.service.finish('fresh', 'SUCCEEDED', new Date(Date.now() - 30_000));
    t.service.add('old', 'b.com');
    t.service.finish('old', 'SUCCEEDED', new Date(Date.now() - 120_000));
    t.connect(ALICE);
    t.follower.watch('fresh');
    t.follower.watch('old');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.refreshed).toEqual([{ account: ALICE, domains: ['a.com'] }]);
    expect(t.toasts).toEqual([]);
    expect(t.service.asked).toHaveLength(2);
  });
});

describe('order follower: remembered orders', () => {
  it('resumes after a reload: the pending order is asked for at once on any page and finishes with the toast', async () => {
    const storage = memoryStorage();
    const before = setup(storage);
    before.service.add('o1', 'a.com', 'CREATED');
    before.connect(ALICE);
    before.follower.seed(ALICE, created('o1', 'a.com'));
    before.follower.watch('o1');
    expect(before.remembered(ALICE)).toEqual([{ id: 'o1', domains: ['a.com'], addedAt: Date.now() }]);

    const after = setup(storage);
    after.service.add('o1', 'a.com');
    after.connect(ALICE.toLowerCase());
    await vi.advanceTimersByTimeAsync(0);
    expect(after.service.askedFor('o1')).toHaveLength(1);
    after.service.finish('o1');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(after.toasts.map((x) => x.title)).toEqual(['a.com: succeeded']);
    expect(storage.data.size).toBe(0);
  });

  it('resumes orders remembered before this follower, in the same key and shape', async () => {
    const storage = memoryStorage();
    storage.setItem(KEY_PREFIX + ALICE.toLowerCase(), JSON.stringify([{ id: 'o9', domains: ['x.com'], addedAt: Date.now() - 1000 }]));
    const t = setup(storage);
    t.service.add('o9', 'x.com');
    t.connect(ALICE);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.service.askedFor('o9')).toHaveLength(1);
  });

  it('keeps each account apart: only the reader’s orders are asked for, and finishing one leaves the other’s', async () => {
    const storage = memoryStorage();
    storage.setItem(KEY_PREFIX + ALICE.toLowerCase(), JSON.stringify([{ id: 'a1', domains: ['a.com'], addedAt: Date.now() }]));
    storage.setItem(KEY_PREFIX + BOB, JSON.stringify([{ id: 'b1', domains: ['b.com'], addedAt: Date.now() }]));
    const t = setup(storage);
    t.service.add('a1', 'a.com');
    t.service.add('b1', 'b.com');
    const asAlice = t.connect(ALICE);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.service.asked.map((a) => a.id)).toEqual(['a1', 'a1']);

    asAlice();
    t.connect(BOB);
    t.service.finish('a1');
    t.service.finish('b1');
    await vi.advanceTimersByTimeAsync(3 * POLL_INTERVAL_MS);
    expect(t.service.askedFor('a1')).toHaveLength(2);
    expect(t.service.askedFor('b1')).toHaveLength(2);
    expect(t.refreshed).toEqual([{ account: BOB, domains: ['b.com'] }]);
    expect(t.toasts.map((x) => x.title)).toEqual(['b.com: succeeded']);
    expect(t.remembered(ALICE).map((o) => o.id)).toEqual(['a1']);
    expect(t.remembered(BOB)).toEqual([]);
  });

  it('remembers a running order once, however often it is seen', async () => {
    const t = setup();
    t.service.add('o1', 'a.com');
    t.connect(ALICE);
    t.follower.watch('o1');
    t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(3 * POLL_INTERVAL_MS);
    expect(t.remembered(ALICE)).toHaveLength(1);
  });

  it('ignores damaged entries and orders older than a week', async () => {
    const storage = memoryStorage();
    storage.setItem(
      KEY_PREFIX + ALICE.toLowerCase(),
      JSON.stringify([{ id: 'old', domains: [], addedAt: Date.now() - WEEK }, { nope: true }, { id: 'new', domains: [], addedAt: Date.now() - WEEK + 1 }]),
    );
    storage.setItem(KEY_PREFIX + BOB, '{not json');
    const t = setup(storage);
    t.service.add('old', 'a.com');
    t.service.add('new', 'b.com');
    t.connect(ALICE);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.service.asked.map((a) => a.id)).toEqual(['new']);
    expect(t.follower.store.getState().pending[ALICE.toLowerCase()]?.map((o) => o.id)).toEqual(['new']);
    t.connect(BOB);
    expect(t.follower.store.getState().pending[BOB]).toEqual([]);
  });

  it('notifies its subscribers on a change and keeps the pending list’s identity while nothing changes', async () => {
    const t = setup();
    t.service.add('o1', 'a.com');
    t.connect(ALICE);
    const pendingNow = () => t.follower.store.getState().pending[ALICE.toLowerCase()];
    const before = pendingNow();
    let calls = 0;
    t.follower.store.subscribe(() => calls++);
    t.follower.watch('o1');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBeGreaterThan(0);
    expect(pendingNow()).not.toBe(before);
    const remembered = pendingNow();
    await vi.advanceTimersByTimeAsync(2 * POLL_INTERVAL_MS);
    expect(pendingNow()).toBe(remembered);
  });

  it('follows what another tab remembered once told storage changed', async () => {
    const storage = memoryStorage();
    const t = setup(storage);
    t.service.add('o2', 'c.com');
    t.connect(ALICE);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.service.asked).toEqual([]);
    storage.setItem(KEY_PREFIX + ALICE.toLowerCase(), JSON.stringify([{ id: 'o2', domains: ['c.com'], addedAt: Date.now() }]));
    t.follower.storageChanged();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.service.askedFor('o2')).toHaveLength(1);
  });
});
