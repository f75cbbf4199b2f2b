import * as dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { packetCache } from './packet-cache.ts';

describe('the packet cache, dropped per zone', () => {
  const query = (name: string) => dnsPacket.encode({ id: 1, type: 'query', flags: 0, questions: [{ name, type: 'A' }] });
  const answer = (q: Buffer) => ({ udp: q, full: q, zone: null as string | null });
  it("drops the changed zone's answers, those of zones above and below it, and those of no zone, and keeps the rest", () => {
    const cache = packetCache(['catalog.test']);
    const names = ['a.com', 'b.com', 'sub.a.com', 'com.', 'x.catalog.test'];
    for (const name of names) cache.set(query(name), { ...answer(query(name)), zone: name === 'com.' ? null : name.replace(/^x\./, '') }, cache.begin());
    expect(names.filter((n) => cache.lookup(query(n)))).toEqual(names);
    cache.drop('a.com');
    expect(names.filter((n) => cache.lookup(query(n)))).toEqual(['b.com']);
    cache.drop(null);
    expect(names.filter((n) => cache.lookup(query(n)))).toEqual([]);
  });
  it('keeps no answer computed while a change arrived', () => {
    const cache = packetCache();
    const token = cache.begin();
    cache.drop('a.com');
    cache.set(query('a.com'), { ...answer(query('a.com')), zone: 'a.com' }, token);
    expect(cache.lookup(query('a.com'))).toBeUndefined();
    cache.set(query('a.com'), { ...answer(query('a.com')), zone: 'a.com' }, cache.begin());
    expect(cache.lookup(query('a.com'))?.udp).toEqual(query('a.com'));
  });
});
