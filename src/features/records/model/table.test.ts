import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '#core/wire/dns.ts';
import { DEFAULT_VIEW, filterRows, listItems, markedRows, narrowingFilter, PENDING_PREFIX, sortedBy, sortRows, firstByName, storedRecords, toRow, typesIn } from './table.ts';

const at = '2026-01-01T00:00:00.000Z';
const rec = (id: string, name: string, type: DnsRecord['type'], rdata: string, ttl = 3600): DnsRecord => ({ id, zoneName: 'example.com', name, type, class: 'IN', ttl, rdata, metadata: null, createdAt: at, updatedAt: at });
const rows = [rec('1', 'www', 'A', '192.0.2.1', 300), rec('2', '@', 'MX', '10 mail.example.com.'), rec('3', 'blog.www', 'CNAME', 'host.example.net.', 60), rec('4', '@', 'TXT', '"v=spf1 -all"')].map((r) => toRow(r, 'example.com'));

describe('records table model', () => {
  it('shows TTL in words, TXT without quotes and the full name', () => {
    expect(rows[0]).toMatchObject({ ttlWords: '5 min', fqdn: 'www.example.com' });
    expect(rows[3].content).toBe('v=spf1 -all');
  });

  it('searches names and content, every word, and filters by type', () => {
    expect(filterRows(rows, 'mail', 'all').map((r) => r.id)).toEqual(['2']);
    expect(filterRows(rows, 'www', 'all').map((r) => r.id)).toEqual(['1', '3']);
    expect(filterRows(rows, 'www host', 'all').map((r) => r.id)).toEqual(['3']);
    expect(filterRows(rows, '', 'TXT').map((r) => r.id)).toEqual(['4']);
  });

  it('sorts by any column both ways, apex first by name', () => {
    expect(sortRows(rows, 'name', 'asc').map((r) => r.name)).toEqual(['@', '@', 'www', 'blog.www']);
    expect(sortRows(rows, 'ttl', 'desc').map((r) => r.ttl)).toEqual([3600, 3600, 300, 60]);
    expect(sortRows(rows, 'type', 'asc').map((r) => r.type)).toEqual(['A', 'CNAME', 'MX', 'TXT']);
  });

  it('groups by type with a heading and count', () => {
    const items = listItems(sortRows(rows, 'name', 'asc'), true);
    expect(items.filter((i) => i.kind === 'group').map((i) => (i.kind === 'group' ? `${i.type}:${i.count}` : ''))).toEqual(['A:1', 'CNAME:1', 'MX:1', 'TXT:1']);
  });

  it('keeps writes on the way out of the zone, and marks rows with the change set', () => {
    const records = [rec('1', 'www', 'A', '192.0.2.1'), rec('2', '@', 'MX', '10 mail.example.com.'), rec('3', '@', 'TXT', '"x"'), rec(`${PENDING_PREFIX}3`, 'api', 'AAAA', '2001:db8::1')];
    expect(storedRecords(records).map((r) => r.id)).toEqual(['1', '2', '3']);
    const marked = markedRows(records, { updates: [{ key: 'u:1', id: '1', record: { name: 'www', type: 'A', rdata: '192.0.2.9', ttl: 300 } }], deletes: [{ key: 'd:3', id: '3' }] }, 'example.com');
    expect(marked.map((r) => r.pending)).toEqual(['change', undefined, 'remove', 'add']);
    expect(typesIn(marked)).toEqual(['A', 'AAAA', 'MX', 'TXT']);
  });

  it('sorts a new column ascending and flips the same one', () => {
    const byTtl = sortedBy(DEFAULT_VIEW, 'ttl');
    expect([byTtl.sort, byTtl.direction]).toEqual(['ttl', 'asc']);
    expect(sortedBy(byTtl, 'ttl').direction).toBe('desc');
    expect(sortedBy(sortedBy(byTtl, 'ttl'), 'ttl').direction).toBe('asc');
    expect(sortedBy(sortedBy(byTtl, 'ttl'), 'name')).toMatchObject({ sort: 'name', direction: 'asc' });
  });

  it('picks the records that come first by name so that their rows sort exactly as the first rows of the whole zone', () => {
    // Names repeat (one name holds several records) so ties are decided by type and content, or left in list order.
    const records = Array.from({ length: 500 }, (_, i) => rec(`r${i}`, i % 11 === 0 ? '@' : `h${(i * 7919) % 97}.w${i % 5}`, i % 3 ? 'A' : 'TXT', i % 3 ? `10.0.0.${i % 4}` : `"x${i % 4}"`, 300));
    const full = sortRows(markedRows(records, { updates: [], deletes: [] }, 'example.com'), 'name', 'asc');
    for (const head of [1, 40, 200]) {
      const picked = firstByName(records, head)!;
      expect(picked.length).toBeGreaterThanOrEqual(head);
      const first = sortRows(markedRows(picked, { updates: [], deletes: [] }, 'example.com'), 'name', 'asc');
      expect(first.map((r) => r.id), `head ${head}`).toEqual(full.slice(0, first.length).map((r) => r.id));
    }
    expect(firstByName(records, 600)).toHaveLength(500);
    // One name over and over: picking would cost more than sorting, so it declines.
    expect(firstByName(Array.from({ length: 2000 }, (_, i) => rec(`t${i}`, '@', 'TXT', `"${i}"`, 300)), 10)).toBeNull();
  });

  it('searching key by key narrows within the last answer and widens again from the whole zone, always as a fresh search would', () => {
    const zone = Array.from({ length: 300 }, (_, i) => toRow(rec(`r${i}`, i % 3 === 0 ? `host-${i}` : `mail-${i}`, i % 2 ? 'A' : 'TXT', i % 2 ? `10.0.0.${i % 256}` : `"Host ${i}"`), 'example.com'));
    const filter = narrowingFilter();
    for (const [query, type] of [['h', 'all'], ['ho', 'all'], ['host-1', 'all'], ['host-12', 'all'], ['host-1', 'all'], ['host-1 10', 'all'], ['host-1 10', 'A'], ['', 'all'], ['HOST', 'all'], ['host 2', 'TXT']] as const) {
      expect(filter(zone, query, type), `${query} ${type}`).toEqual(filterRows(zone, query, type));
    }
  });

  it('gives the same list back when every row matches, and answers a query typed again as before, until the rows change', () => {
    const zone = Array.from({ length: 50 }, (_, i) => toRow(rec(`r${i}`, `host-${i}`, 'A', `10.0.0.${i}`), 'example.com'));
    const filter = narrowingFilter();
    expect(filter(zone, 'host', 'all'), 'all match').toBe(zone);
    const narrow = filter(zone, 'host-1', 'all');
    expect(narrow.map((r) => r.name)).toEqual(filterRows(zone, 'host-1', 'all').map((r) => r.name));
    filter(zone, 'host-12', 'all');
    expect(filter(zone, 'host-1', 'all'), 'back to a query typed before').toBe(narrow);
    expect(filter(zone, 'HOST-1 ', 'all'), 'case and spaces at the ends do not matter').toBe(narrow);
    const changed = [...zone.slice(1), toRow(rec('new', 'host-100', 'A', '10.0.1.1'), 'example.com')];
    const after = filter(changed, 'host-1', 'all');
    expect(after).not.toBe(narrow);
    expect(after.map((r) => r.name)).toEqual(filterRows(changed, 'host-1', 'all').map((r) => r.name));
  });

  it('finds a word in the name, the full name or the data, in any case, but not across two of them', () => {
    const zone = [rec('1', 'www', 'A', '192.0.2.1'), rec('2', 'Mail', 'TXT', '"Hello World"'), rec('3', '@', 'MX', '10 mx.example.net.')].map((r) => toRow(r, 'Example.COM'));
    const ids = (query: string) => filterRows(zone, query, 'all').map((r) => r.id);
    expect(ids('www.example')).toEqual(['1']);
    expect(ids('example')).toEqual(['1', '2', '3']);
    expect(ids('mail.example.com')).toEqual(['2']);
    expect(ids('MAIL hello')).toEqual(['2']);
    expect(ids('world')).toEqual(['2']);
    expect(ids('www.192')).toEqual([]);
    expect(ids('com.192')).toEqual([]);
    expect(ids('.example.com')).toEqual(['1', '2']);
  });
});

describe('tags in the table filter', () => {
  const noted = [
    { ...rec('a', 'www', 'A', '192.0.2.1'), tags: ['prod', 'team:web'], comment: 'Front door' },
    { ...rec('b', 'api', 'A', '192.0.2.2'), tags: ['env:prod'] },
    { ...rec('c', 'mail', 'A', '192.0.2.3'), tags: ['production'] },
    rec('d', 'old', 'A', '192.0.2.4'),
  ].map((r) => toRow(r, 'example.com'));
  const ids = (list: Array<{ id: string }>) => list.map((r) => r.id);

  it('tag:x keeps the records with that tag (or x:value); other words search the comment and tags too', () => {
    expect(ids(filterRows(noted, 'tag:prod', 'all'))).toEqual(['a']);
    expect(ids(filterRows(noted, 'tag:env', 'all'))).toEqual(['b']);
    expect(ids(filterRows(noted, 'TAG:env:prod', 'all'))).toEqual(['b']);
    expect(ids(filterRows(noted, 'front', 'all'))).toEqual(['a']);
    expect(ids(filterRows(noted, 'prod', 'all'))).toEqual(['a', 'b', 'c']);
    expect(ids(filterRows(noted, 'tag:prod www', 'all'))).toEqual(['a']);
  });

  it('a longer tag is no narrowing of a shorter one: tag:pro then tag:prod still finds prod', () => {
    const filter = narrowingFilter();
    expect(ids(filter(noted, 'tag:pro', 'all'))).toEqual([]);
    expect(ids(filter(noted, 'tag:prod', 'all'))).toEqual(['a']);
  });
});
