import { describe, expect, it } from 'vitest';
import { snapshotBytes, snapshotCache } from './snapshot-cache.ts';
import { buildSnapshot, DEFAULT_SOA, type ZoneSnapshot } from './zone-snapshot.ts';

const settings = { nameservers: ['ns1.example.net.'], soa: DEFAULT_SOA, nsTtl: 3600, forwardAddresses: ['192.0.2.53'] };
const zone = (name: string, records = 3): ZoneSnapshot =>
  buildSnapshot(name, { serial: 1, version: 'v1', parked: false, forwarding: false }, Array.from({ length: records }, (_, i) => ({ name: `host${i}`, type: 'A' as const, ttl: 300, rdata: `192.0.2.${i}` })), settings);

describe('the snapshot cache', () => {
  it('estimates a bigger zone as bigger, and keeps within its budget by dropping the least recently asked', () => {
    expect(snapshotBytes(zone('big.test', 100))).toBeGreaterThan(snapshotBytes(zone('small.test', 3)) * 10);
    const one = snapshotBytes(zone('a.test'));
    const cache = snapshotCache(one * 2 + 10);
    cache.set('a.test', zone('a.test'), true);
    cache.set('b.test', zone('b.test'), true);
    cache.get('a.test');
    cache.set('c.test', zone('c.test'), true);
    expect([cache.peek('a.test')?.current, cache.peek('b.test'), cache.peek('c.test')?.current]).toEqual([true, undefined, true]);
    expect(cache.bytes).toBeLessThanOrEqual(one * 2 + 10);
  });

  it('keeps a zone bigger than the budget, alone, and outdated signed or big zones only', () => {
    const cache = snapshotCache(100);
    cache.set('a.test', zone('a.test'), true);
    cache.set('b.test', zone('b.test'), true, 'basis');
    expect([cache.size, cache.peek('b.test')?.current]).toEqual([1, true]);
    cache.outdate('b.test');
    expect(cache.peek('b.test')).toMatchObject({ current: false, basis: 'basis' });
    cache.set('c.test', zone('c.test'), true);
    cache.outdate('c.test');
    expect(cache.peek('c.test')).toBeUndefined();
  });
});
