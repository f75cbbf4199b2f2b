import { describe, expect, it } from 'vitest';
import { parseTtl, TTL_PRESETS, ttlInWords } from './ttl.ts';

describe('ttlInWords', () => {
  it.each([
    [0, '0 s'],
    [1, '1 s'],
    [59, '59 s'],
    [60, '1 min'],
    [90, '90 s'],
    [300, '5 min'],
    [1800, '30 min'],
    [3600, '1 h'],
    [5400, '1.5 h'],
    [7200, '2 h'],
    [4000, '4000 s'],
    [3660, '61 min'],
    [43200, '12 h'],
    [86400, '1 day'],
    [172800, '2 days'],
    [604800, '7 days'],
  ])('%i s reads %j', (seconds, words) => {
    expect(ttlInWords(seconds)).toBe(words);
  });

  it('offers presets from a minute to a day, labelled in words', () => {
    expect(TTL_PRESETS).toEqual([
      { label: '1 min', seconds: 60 },
      { label: '5 min', seconds: 300 },
      { label: '30 min', seconds: 1800 },
      { label: '1 h', seconds: 3600 },
      { label: '12 h', seconds: 43200 },
      { label: '1 day', seconds: 86400 },
    ]);
  });
});

describe('parseTtl', () => {
  it.each([
    ['300', 300],
    [' 0 ', 0],
    ['5m', 300],
    ['1h', 3600],
    ['1H', 3600],
    ['1d', 86400],
    ['1w', 604800],
    ['1h30m', 5400],
    ['1d 2h', 93600],
    ['45s', 45],
    ['2147483647', 2147483647],
  ])('reads %j as %i seconds', (text, seconds) => {
    expect(parseTtl(text)).toEqual({ ok: true, value: seconds });
  });

  it.each([
    ['', 'Enter a TTL in seconds such as 3600'],
    ['abc', 'Enter a TTL in seconds such as 3600'],
    ['5 minutes', 'Enter a TTL in seconds'],
    ['-1', 'cannot be negative'],
    ['1.5h', 'write 1h30m or 5400'],
    ['2147483648', 'at most 2147483647'],
    ['1y', 'Enter a TTL'],
  ])('refuses %j: "%s"', (text, fragment) => {
    const result = parseTtl(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(fragment);
  });

  it('reads back every preset label written the BIND way', () => {
    expect(TTL_PRESETS.map((p) => parseTtl(p.label.replace(' min', 'm').replace(' h', 'h').replace(' day', 'd')))).toEqual(
      TTL_PRESETS.map((p) => ({ ok: true, value: p.seconds })),
    );
  });
});
