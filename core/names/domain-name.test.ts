import { describe, expect, it } from 'vitest';
import { parseDomainName } from './domain-name.ts';

describe('parseDomainName', () => {
  it.each([
    ['example.com', 'example.com', 'example', 'com'],
    ['  Example.COM  ', 'example.com', 'example', 'com'],
    ['example.com.', 'example.com', 'example', 'com'],
    ['https://Example.com/x?y=1#z', 'example.com', 'example', 'com'],
    ['http://user@example.com:8080/', 'example.com', 'example', 'com'],
    ['www.example.com', 'example.com', 'example', 'com'],
    ['my-shop42.io', 'my-shop42.io', 'my-shop42', 'io'],
    ['bücher.de', 'xn--bcher-kva.de', 'xn--bcher-kva', 'de'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de', 'xn--bcher-kva', 'de'],
    ['例え.テスト', 'xn--r8jz45g.xn--zckzah', 'xn--r8jz45g', 'xn--zckzah'],
    ['a.co', 'a.co', 'a', 'co'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`, 'a'.repeat(63), 'com'],
  ])('reads %j as %s', (input, name, label, tld) => {
    expect(parseDomainName(input)).toEqual({ ok: true, name, label, tld });
  });

  it.each([
    ['', 'Enter a domain name such as example.com'],
    ['   ', 'Enter a domain name such as example.com'],
    ['example', 'Add an ending such as .com'],
    ['https://example/', 'Add an ending such as .com'],
    ['my shop.com', 'cannot contain spaces'],
    ['ex!ample.com', 'Use letters, digits and hyphens'],
    ['my_shop.com', 'Use letters, digits and hyphens (no underscores)'],
    ['-shop.com', 'A label cannot start or end with a hyphen'],
    ['shop-.com', 'A label cannot start or end with a hyphen'],
    [`${'a'.repeat(64)}.com`, 'At most 63 characters per label'],
    ['shop..com', 'empty part'],
    ['.com', 'empty part'],
    ['shop.example.com', 'Enter just a name and its ending, such as example.com: shop.example.com has 3 parts'],
    ['example.co.uk', 'has 3 parts'],
    ['example.c0m', 'The ending must be letters only'],
    ['example.c', 'The ending must be letters only, at least two'],
    ['ab--cd.com', 'reserved for xn--'],
    ['example.com..', 'cannot end with two dots'],
    ['192.0.2.1', 'That is an IP address'],
    ['http://[2001:db8::1]/', 'That is an IP address'],
  ])('refuses %j: "%s"', (input, fragment) => {
    const result = parseDomainName(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(fragment);
  });
});
