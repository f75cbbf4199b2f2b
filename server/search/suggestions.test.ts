import { describe, expect, it } from 'vitest';
import { labelOf, paginate, suggestionsFor } from './suggestions.ts';
import { parseDomainName } from '#core/names/index.ts';
import { SUPPORTED_TLDS } from './pricing.ts';

describe('labelOf', () => {
  it.each([
    ['Coffee Shop', 'coffee-shop', null],
    ['https://www.Rocket.IO/launch', 'rocket', 'io'],
    ['  --hello__world--  ', 'hello-world', null],
    ['name.museum', 'name', null],
  ])('%j gives the label %j and the ending %j', (query, label, tld) => {
    expect(labelOf(query)).toEqual({ label, tld });
  });
});

describe('suggestionsFor', () => {
  it('offers only names that parse as registrable names on a TLD on sale, without repeats', () => {
    const all = suggestionsFor('My Shop');
    expect(all.length).toBeGreaterThan(SUPPORTED_TLDS.length);
    for (const name of all) {
      const parsed = parseDomainName(name);
      expect(parsed.ok && parsed.name === name && SUPPORTED_TLDS.includes(parsed.tld), name).toBe(true);
    }
    expect(new Set(all).size).toBe(all.length);
  });

  it('keeps a 63-character label and drops variants that would be longer', () => {
    const long = 'a'.repeat(63);
    const all = suggestionsFor(long);
    expect(all[0]).toBe(`${long}.com`);
    expect(all.every((name) => name.split('.')[0].length <= 63)).toBe(true);
  });
});

describe('paginate', () => {
  const names = Array.from({ length: 5 }, (_, i) => `n${i}.com`);
  it('cuts pages and says which comes next', () => {
    expect(paginate(names, 1, 2)).toEqual({ domains: ['n0.com', 'n1.com'], page: 1, totalPages: 3, nextPage: 2, pageSize: 2 });
    expect(paginate(names, 3, 2)).toEqual({ domains: ['n4.com'], page: 3, totalPages: 3, nextPage: null, pageSize: 2 });
    expect(paginate(names, 4, 2)).toEqual({ domains: [], page: 4, totalPages: 3, nextPage: null, pageSize: 2 });
  });
});
