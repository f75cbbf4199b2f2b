import { describe, expect, it } from 'vitest';
import { serviceUrlError } from './validation.ts';

describe('serviceUrlError', () => {
  const policy = { origins: ['https://api.namefi.io', 'https://rpc.example'], pageOrigin: 'https://dash.namefi.io' };

  it('accepts a service the build’s Content-Security-Policy allows, at any path ending in /v-next', () => {
    expect(serviceUrlError('https://api.namefi.io/v-next', policy)).toBeUndefined();
    expect(serviceUrlError('https://dash.namefi.io/api/v-next/', policy)).toBeUndefined();
  });

  it('refuses one the policy would block, naming what the build allows', () => {
    expect(serviceUrlError('https://other.example/v-next', policy)).toBe(
      'This dashboard may only connect to https://api.namefi.io, https://rpc.example (its Content-Security-Policy); another service needs its own build',
    );
    expect(serviceUrlError('http://api.namefi.io/v-next', policy)).toMatch(/may only connect to/);
  });

  it('checks only the form where no policy applies (the dev server)', () => {
    expect(serviceUrlError('https://other.example/v-next')).toBeUndefined();
    expect(serviceUrlError('other.example')).toMatch(/Enter a full URL/);
  });
});
