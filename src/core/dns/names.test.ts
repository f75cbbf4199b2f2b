import { describe, expect, it } from 'vitest';
import { fullName, relativeName, validateRecordName } from './names.ts';

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
