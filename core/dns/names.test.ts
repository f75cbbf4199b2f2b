import { describe, expect, it } from 'vitest';
import {
  ancestorsOf,
  canonicalKey,
  fullName,
  isAtOrBelow,
  normaliseZone,
  parentName,
  plainName,
  relativeName,
  sameName,
  toAbsolute,
  toRelative,
  validateRecordName,
  withoutTrailingDot,
  withTrailingDot,
} from './names.ts';

const ZONE = 'example.com';

describe('validateRecordName', () => {
  it.each([
    ['', '@'],
    ['@', '@'],
    ['  www ', 'www'],
    ['WWW', 'www'],
    ['www.example.com.', 'www'],
    ['www.example.com', 'www'],
    ['WWW.Example.COM.', 'www'],
    ['example.com', '@'],
    ['example.com.', '@'],
    ['_dmarc', '_dmarc'],
    ['s1._domainkey', 's1._domainkey'],
    ['_sip._tcp.voice', '_sip._tcp.voice'],
    ['a-b.c-d', 'a-b.c-d'],
    ['x_', 'x_'],
    ['bücher', 'xn--bcher-kva'],
    ['a'.repeat(63), 'a'.repeat(63)],
    ['*', '*'],
    ['*.shop', '*.shop'],
    ['*.example.com.', '*'],
  ])('accepts %j as %j', (input, expected) => {
    expect(validateRecordName(input, ZONE)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['a..b', 'empty part'],
    ['.www', 'empty part'],
    ['a.*', 'A wildcard (*) can only be the first part'],
    ['w*w', 'a wildcard is a whole "*" part'],
    ['foo.other.org.', 'foo.other.org is not inside example.com'],
    ['www.', 'Remove the final dot: write www (for www.example.com)'],
    ['-www', 'starts or ends with a hyphen'],
    ['www-', 'starts or ends with a hyphen'],
    ['a'.repeat(64), 'at most 63 characters'],
    ['my site', 'cannot contain spaces'],
    ['a_b', 'underscore may only start or end'],
    ['web!', 'characters a name cannot hold'],
    ['@.www', 'Leave out "@"'],
  ])('refuses %j: "%s"', (input, fragment) => {
    const result = validateRecordName(input, ZONE);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(fragment);
  });

  it('limits the full name to 255 characters', () => {
    // 4 labels of 60 + 3 dots = 243, plus ".example.com" (12) = 255: just fits.
    const fits = Array.from({ length: 4 }, () => 'a'.repeat(60)).join('.');
    expect(fullName(fits, ZONE)).toHaveLength(255);
    expect(validateRecordName(fits, ZONE)).toEqual({ ok: true, value: fits });
    const tooLong = `b${fits}`;
    const result = validateRecordName(tooLong, ZONE);
    expect(result).toEqual({ ok: false, message: expect.stringContaining('has 256 characters; a DNS name is at most 255') });
  });
});

describe('fullName and relativeName', () => {
  it.each([
    ['@', 'example.com'],
    ['www', 'www.example.com'],
    ['_dmarc', '_dmarc.example.com'],
  ])('fullName(%j) is %j and relativeName takes it back', (name, full) => {
    expect(fullName(name, ZONE)).toBe(full);
    expect(relativeName(full, ZONE)).toBe(name);
    expect(relativeName(`${full}.`, ZONE)).toBe(name);
  });

  it('accepts a zone written with a trailing dot or capitals', () => {
    expect(fullName('www', 'Example.COM.')).toBe('www.example.com');
    expect(relativeName('WWW.EXAMPLE.COM.', 'example.com.')).toBe('www');
  });

  it('leaves a name outside the zone as it is, without its dot', () => {
    expect(relativeName('mail.other.org.', ZONE)).toBe('mail.other.org');
    expect(relativeName('notexample.com', ZONE)).toBe('notexample.com');
  });
});

describe('spellings and trailing dots', () => {
  it('plainName lowercases and drops the root dot; normaliseZone trims first', () => {
    expect(plainName('WWW.Example.COM.')).toBe('www.example.com');
    expect(plainName(' a. ')).toBe(' a. ');
    expect(normaliseZone(' Example.COM. ')).toBe('example.com');
    expect(plainName('.')).toBe('');
  });

  it('adds or drops one trailing dot, keeping case', () => {
    expect(withoutTrailingDot('A.b.')).toBe('A.b');
    expect(withoutTrailingDot('a..')).toBe('a.');
    expect(withoutTrailingDot('a')).toBe('a');
    expect(withTrailingDot('Ns1.example.net')).toBe('Ns1.example.net.');
    expect(withTrailingDot('ns1.example.net.')).toBe('ns1.example.net.');
  });

  it('sameName ignores case and the trailing dot only', () => {
    expect(sameName('Example.COM.', 'example.com')).toBe(true);
    expect(sameName('.', '')).toBe(true);
    expect(sameName('www.example.com', 'example.com')).toBe(false);
  });
});

describe('names in and out of a zone', () => {
  it.each([
    ['example.com', true],
    ['www.example.com', true],
    ['a.b.example.com', true],
    ['notexample.com', false],
    ['com', false],
    ['example.com.org', false],
    ['xexample.com', false],
  ])('isAtOrBelow(%j, example.com) is %j', (name, inside) => {
    expect(isAtOrBelow(name, ZONE)).toBe(inside);
  });

  it('toAbsolute and toRelative take a plain apex; only "@" is the apex', () => {
    expect(toAbsolute('@', ZONE)).toBe('example.com');
    expect(toAbsolute('www', ZONE)).toBe('www.example.com');
    expect(toAbsolute('@', ZONE, true)).toBe('example.com.');
    expect(toAbsolute('a.b', ZONE, true)).toBe('a.b.example.com.');
    expect(toAbsolute('', ZONE)).toBe('.example.com');
    expect(fullName('', ZONE)).toBe('example.com');
    expect(toRelative('example.com', ZONE)).toBe('@');
    expect(toRelative('a.b.example.com', ZONE)).toBe('a.b');
  });
});

describe('ancestors', () => {
  it('walks up one label at a time, apex excluded', () => {
    expect(parentName('a.b.c')).toBe('b.c');
    expect(parentName('c')).toBeNull();
    expect(parentName('@')).toBeNull();
    expect(ancestorsOf('a.b.c')).toEqual(['b.c', 'c']);
    expect(ancestorsOf('www')).toEqual([]);
    expect(ancestorsOf('@')).toEqual([]);
    expect(ancestorsOf('_sip._tcp.voice')).toEqual(['_tcp.voice', 'voice']);
  });
});

describe('canonicalKey', () => {
  it('keys labels from the root, ignoring case and the trailing dot', () => {
    expect(canonicalKey('A.Example.COM.')).toBe('com\u0000example\u0000a');
    expect(canonicalKey('www')).toBe('www');
    expect(canonicalKey('.')).toBe('');
  });

  it('sorts names in the order of RFC 4034 §6.1', () => {
    // The example of RFC 4034 §6.1, in canonical order.
    const ordered = ['example', 'a.example', 'yljkjljk.a.example', 'Z.a.example', 'zABC.a.EXAMPLE', 'z.example', '\u0001.z.example', '*.z.example', '\u0200.z.example'];
    const shuffled = [...ordered].reverse();
    const byKey = (a: string, b: string) => (canonicalKey(a) < canonicalKey(b) ? -1 : canonicalKey(a) > canonicalKey(b) ? 1 : 0);
    expect(shuffled.sort(byKey)).toEqual(ordered);
  });
});
