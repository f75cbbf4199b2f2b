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
    expect(cache.size).toBe(5);
    cache.drop('a.com');
    expect(names.filter((n) => cache.lookup(query(n)))).toEqual(['b.com']);
    cache.drop(null);
    expect(cache.size).toBe(0);
  });
  it('keeps no answer computed while a change arrived, and tells its listeners of each entry and drop', () => {
    const cache = packetCache();
    const seen: string[] = [];
    const stop = cache.listen({ onSet: (key) => seen.push(`set ${key.length}`), onDrop: (zone) => seen.push(`drop ${zone}`) });
    const token = cache.begin();
    cache.drop('a.com');
    cache.set(query('a.com'), { ...answer(query('a.com')), zone: 'a.com' }, token);
    expect(cache.size).toBe(0);
    cache.set(query('a.com'), { ...answer(query('a.com')), zone: 'a.com' }, cache.begin());
    stop();
    cache.drop(null);
    expect(seen).toEqual(['drop a.com', `set ${query('a.com').length - 2}`]);
  });
});
