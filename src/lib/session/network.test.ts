import { describe, expect, it } from 'vitest';
import { checkNetwork, signInAddress } from './network.ts';

describe('checkNetwork', () => {
  const known = [31337, 11155111, 1, 8453];
  it('waits until both the wallet chain and the allowed list are known', () => {
    expect(checkNetwork(undefined, [31337], known)).toEqual({ state: 'unknown' });
    expect(checkNetwork(1, undefined, known)).toEqual({ state: 'unknown' });
  });
  it('fits an allowed chain', () => {
    expect(checkNetwork(31337, [11155111, 31337], known)).toEqual({ state: 'fits' });
  });
  it('asks for the first allowed chain the dashboard knows, local chain first', () => {
    expect(checkNetwork(1, [11155111, 46630, 31337], known)).toEqual({ state: 'wrong', target: 31337 });
    expect(checkNetwork(1, [46630, 11155111], known)).toEqual({ state: 'wrong', target: 11155111 });
  });
  it('prefers the allowed chain the wallet was on last', () => {
    expect(checkNetwork(1, [11155111, 31337], known, 11155111)).toEqual({ state: 'wrong', target: 11155111 });
    expect(checkNetwork(1, [31337], known, 11155111)).toEqual({ state: 'wrong', target: 31337 });
  });
  it('has no target when the dashboard knows none of the allowed chains', () => {
    expect(checkNetwork(1, [46630], [1, 8453])).toEqual({ state: 'wrong', target: undefined });
  });
});

describe('signInAddress', () => {
  it('keeps the path and the scheme', () => {
    expect(signInAddress('127.0.0.1:5173', { protocol: 'http:', pathname: '/domains' })).toBe('http://127.0.0.1:5173/domains');
    expect(signInAddress('app.namefi.io', { protocol: 'https:', pathname: '/' })).toBe('https://app.namefi.io/');
    expect(signInAddress('[::1]:5173', { protocol: 'http:', pathname: '/' })).toBe('http://[::1]:5173/');
  });
  it('gives no link for a host that is not one', () => {
    expect(signInAddress('evil.com/phish?x=', { protocol: 'http:', pathname: '/' })).toBeUndefined();
    expect(signInAddress('a b', { protocol: 'http:', pathname: '/' })).toBeUndefined();
  });
});
