import { describe, expect, it } from 'vitest';
import type { UserDomain } from '#core/wire/user.ts';
import { domainFilters, expiresWithin, expiryInWords, shortTokenId, toDomainRow, viewDomains, weekOfQueriesInWords } from './domain-list.ts';
import { readListParams, writeListParams } from './list-params.ts';

const now = Date.parse('2026-06-01T00:00:00Z');
const domain = (name: string, expires: string, parked = false, web = false): UserDomain => ({
  normalizedDomainName: name,
  chainId: 31337,
  ownerAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  tokenId: '98765432109876543210',
  expirationDate: expires,
  dnsStatus: { isParkingEnabled: parked, hasWebRecords: web, hasMxRecords: false },
});
const rows = [
  domain('zeta.com', '2027-06-01T00:00:00Z', true),
  domain('alpha.io', '2026-06-11T00:00:00Z', false, true),
  domain('old.dev', '2026-05-20T00:00:00Z', true),
].map((d) => toDomainRow(d, now));

describe('my domains list', () => {
  it('warns when expiry is near or past', () => {
    expect(rows.map((r) => r.expiry)).toEqual(['ok', 'soon', 'expired']);
    expect(expiryInWords(rows[1])).toBe('expires in 10 days');
    expect(expiryInWords(rows[2])).toBe('expired 12 days ago');
  });

  it('sorts by name or expiry and filters by words and state', () => {
    const base = { query: '', filter: 'all' as const, sort: 'name' as const, direction: 'asc' as const };
    expect(viewDomains(rows, base).map((r) => r.name)).toEqual(['alpha.io', 'old.dev', 'zeta.com']);
    expect(viewDomains(rows, { ...base, sort: 'expiry', direction: 'desc' }).map((r) => r.name)).toEqual(['zeta.com', 'alpha.io', 'old.dev']);
    expect(viewDomains(rows, { ...base, within: 30 }).map((r) => r.name)).toEqual(['alpha.io', 'old.dev']);
    expect(viewDomains(rows, { ...base, filter: 'parked', query: 'ze' }).map((r) => r.name)).toEqual(['zeta.com']);
    expect(viewDomains(rows, { ...base, filter: 'no-web' }).map((r) => r.name)).toEqual(['old.dev', 'zeta.com']);
  });

  it('shortens a token id', () => {
    expect(shortTokenId('98765432109876543210')).toBe('987654…3210');
    expect(shortTokenId('42')).toBe('42');
  });
});

describe('the workbench filters and sorts on what the service gives', () => {
  const ours = (name: string, extra: Partial<UserDomain['dnsStatus']>, recordCount: number, registeredAt: string) =>
    toDomainRow({ ...domain(name, '2027-06-01T00:00:00Z'), dnsStatus: { isParkingEnabled: false, hasWebRecords: true, hasMxRecords: false, ...extra }, recordCount, registeredAt }, now);
  const local = [
    ours('fwd.com', { isForwardingEnabled: true }, 0, '2026-03-01T00:00:00Z'),
    ours('sec.com', { isForwardingEnabled: false, isDnssecEnabled: true }, 7, '2026-01-01T00:00:00Z'),
    ours('big.com', { isForwardingEnabled: false }, 40, '2026-02-01T00:00:00Z'),
  ];
  const base = { query: '', filter: 'all' as const, sort: 'name' as const, direction: 'asc' as const };

  it('filters by forwarding, DNSSEC and records; sorts by registration date and record count', () => {
    expect(viewDomains(local, { ...base, filter: 'forwarding' }).map((r) => r.name)).toEqual(['fwd.com']);
    expect(viewDomains(local, { ...base, filter: 'dnssec' }).map((r) => r.name)).toEqual(['sec.com']);
    expect(viewDomains(local, { ...base, filter: 'no-records' }).map((r) => r.name)).toEqual(['fwd.com']);
    expect(viewDomains(local, { ...base, sort: 'registered' }).map((r) => r.name)).toEqual(['sec.com', 'big.com', 'fwd.com']);
    expect(viewDomains(local, { ...base, sort: 'records', direction: 'desc' }).map((r) => r.name)).toEqual(['big.com', 'sec.com', 'fwd.com']);
  });

  it('offers only the filters the rows can answer (production gives no forwarding, DNSSEC or counts)', () => {
    expect(domainFilters(local).map((f) => f.value)).toEqual(expect.arrayContaining(['forwarding', 'dnssec', 'no-records']));
    expect(domainFilters(rows).map((f) => f.value)).toEqual(['all', 'parked', 'not-parked', 'no-web']);
  });

  it('offers "DNSSEC on" only where the service says whether each zone is signed, even if none is', () => {
    const unsaid = [ours('fwd.com', { isForwardingEnabled: true }, 0, '2026-03-01T00:00:00Z')];
    expect(domainFilters(unsaid).map((f) => f.value)).not.toContain('dnssec');
    const noneSigned = [ours('fwd.com', { isForwardingEnabled: true, isDnssecEnabled: false }, 0, '2026-03-01T00:00:00Z')];
    expect(domainFilters(noneSigned).map((f) => f.value)).toContain('dnssec');
    expect(viewDomains(noneSigned, { ...base, filter: 'dnssec' })).toEqual([]);
  });
});

describe('expires within', () => {
  const at = (days: number, hours = 0) => new Date(now + days * 86_400_000 + hours * 3_600_000).toISOString();
  const list = [
    domain('gone.com', at(-3)),
    domain('today.com', at(0, 5)),
    domain('six.com', at(6, 23)),
    domain('seven.com', at(7)),
    domain('month.com', at(29, 23)),
    domain('thirty.com', at(30)),
    domain('season.com', at(89)),
    domain('later.com', at(90)),
    domain('year.com', at(365)),
  ].map((d) => toDomainRow(d, now));
  const base = { query: '', filter: 'all' as const, sort: 'expiry' as const, direction: 'asc' as const };
  const names = (within: 'any' | 7 | 30 | 90) => viewDomains(list, { ...base, within }).map((r) => r.name);

  it('keeps what expires in less than the window, the expired first of all, soonest first', () => {
    expect(names(7)).toEqual(['gone.com', 'today.com', 'six.com']);
    expect(names(30)).toEqual(['gone.com', 'today.com', 'six.com', 'seven.com', 'month.com']);
    expect(names(90)).toEqual(['gone.com', 'today.com', 'six.com', 'seven.com', 'month.com', 'thirty.com', 'season.com']);
    expect(names('any')).toHaveLength(9);
    expect(expiresWithin({ daysLeft: 6 }, 7)).toBe(true);
    expect(expiresWithin({ daysLeft: 7 }, 7)).toBe(false);
  });

  it('combines with the other filters and the search', () => {
    expect(viewDomains(list, { ...base, within: 30, query: 'n' }).map((r) => r.name)).toEqual(['gone.com', 'seven.com', 'month.com']);
    expect(viewDomains(list, { ...base, within: 30, filter: 'parked' })).toEqual([]);
  });
});

describe('the list view in the address', () => {
  it('reads what it wrote and keeps other parameters', () => {
    const written = writeListParams(new URLSearchParams('x=1'), { within: 30, sort: 'expiry', direction: 'desc' });
    expect(written.toString()).toBe('x=1&expires=30&sort=expiry&dir=desc');
    expect(readListParams(written)).toEqual({ within: 30, sort: 'expiry', direction: 'desc' });
  });

  it('leaves defaults out and reads anything unknown as the default', () => {
    expect(writeListParams(new URLSearchParams('expires=7&sort=records'), { within: 'any', sort: 'name', direction: 'asc' }).toString()).toBe('');
    expect(readListParams(new URLSearchParams('expires=8&sort=price&dir=up'))).toEqual({ within: 'any', sort: 'name', direction: 'asc' });
    expect(readListParams(new URLSearchParams('expires=90'))).toEqual({ within: 90, sort: 'name', direction: 'asc' });
  });
});

describe('a week of queries in words', () => {
  it('says the total and today, with the right plural', () => {
    expect(weekOfQueriesInWords([0, 0, 3, 0, 1200, 0, 1])).toBe('1,204 queries in 7 days, 1 query today');
    expect(weekOfQueriesInWords([0, 0, 0, 0, 0, 0, 0])).toBe('0 queries in 7 days, 0 queries today');
  });
});
