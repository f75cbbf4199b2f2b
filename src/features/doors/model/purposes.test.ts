import { describe, expect, it } from 'vitest';
import { relativeTo, scopeFor } from './purposes.ts';

describe('the narrowest key for a purpose', () => {
  it('certificates: TXT at _acme-challenge under each name, a wildcard proved under its base, each once', () => {
    expect(scopeFor('certificates', 'shop.com', ['@', '*', 'www', '*.dev', 'dev'])).toEqual({
      zones: ['shop.com'], names: ['_acme-challenge', '_acme-challenge.www', '_acme-challenge.dev'], types: ['TXT'], access: 'write', expiresAt: null, cidrs: [],
    });
  });

  it('a router: A and AAAA at its hostnames only; external-dns and Terraform: the zone', () => {
    expect(scopeFor('router', 'shop.com', ['home', 'home', '@'])).toMatchObject({ names: ['home', '@'], types: ['A', 'AAAA'], access: 'write' });
    for (const purpose of ['kubernetes', 'terraform'] as const) expect(scopeFor(purpose, 'shop.com', [])).toMatchObject({ zones: ['shop.com'], names: [], types: [], access: 'write' });
  });

  it('reads a typed name relative to the zone, or refuses it', () => {
    expect(relativeTo('shop.com', 'WWW.shop.com.')).toBe('www');
    expect(relativeTo('shop.com', 'shop.com')).toBe('@');
    expect(relativeTo('shop.com', '@')).toBe('@');
    expect(relativeTo('shop.com', '*.shop.com')).toBe('*');
    expect(relativeTo('shop.com', 'a.b')).toBe('a.b');
    for (const bad of ['', 'h!ome', 'a..b', '-x-', 'a'.repeat(64)]) expect(relativeTo('shop.com', bad), bad).toBeNull();
  });
});
