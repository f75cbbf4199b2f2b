import { describe, expect, it } from 'vitest';
import { createPendingOrdersStore, type KeyValueStorage } from './pending-orders.ts';

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

const ALICE = '0xAbC0000000000000000000000000000000000001';
const BOB = '0xbbb0000000000000000000000000000000000002';

describe('pending orders store', () => {
  it('remembers orders per account, across a reload', () => {
    const storage = memoryStorage();
    const store = createPendingOrdersStore(storage, () => 1000);
    store.add(ALICE, { id: 'o1', domains: ['a.com'] });
    store.add(BOB, { id: 'o2', domains: ['b.com'] });

    const reloaded = createPendingOrdersStore(storage, () => 2000);
    expect(reloaded.list(ALICE.toLowerCase())).toEqual([{ id: 'o1', domains: ['a.com'], addedAt: 1000 }]);
    expect(reloaded.list(BOB).map((o) => o.id)).toEqual(['o2']);
  });

  it('adds an order once and forgets it when removed', () => {
    const storage = memoryStorage();
    const store = createPendingOrdersStore(storage);
    store.add(ALICE, { id: 'o1', domains: [] });
    store.add(ALICE, { id: 'o1', domains: [] });
    expect(store.list(ALICE)).toHaveLength(1);
    store.remove(ALICE, 'o1');
    expect(store.list(ALICE)).toEqual([]);
    expect(storage.data.size).toBe(0);
  });

  it('notifies subscribers and keeps the list identity stable between changes', () => {
    const store = createPendingOrdersStore(memoryStorage());
    let calls = 0;
    store.subscribe(() => calls++);
    const before = store.list(ALICE);
    expect(store.list(ALICE)).toBe(before);
    store.add(ALICE, { id: 'o1', domains: [] });
    expect(calls).toBe(1);
    expect(store.list(ALICE)).not.toBe(before);
    store.remove(ALICE, 'missing');
    expect(calls).toBe(1);
  });

  it('ignores damaged entries and orders older than a week', () => {
    const storage = memoryStorage();
    const week = 7 * 24 * 3600 * 1000;
    storage.setItem(
      'namefi.dashboard.pendingOrders.' + ALICE.toLowerCase(),
      JSON.stringify([{ id: 'old', domains: [], addedAt: 0 }, { nope: true }, { id: 'new', domains: [], addedAt: week }]),
    );
    const store = createPendingOrdersStore(storage, () => week + 1);
    expect(store.list(ALICE).map((o) => o.id)).toEqual(['new']);
    storage.setItem('namefi.dashboard.pendingOrders.' + BOB, '{not json');
    expect(store.list(BOB)).toEqual([]);
  });
});
