import { afterEach, describe, expect, it, vi } from 'vitest';
import { headerPolicy, parsePolicy } from '../../app/csp.ts';
import { endpointsFromEnv, SAFE_WALLET_ORIGIN } from '../endpoints.ts';
import { walletList } from './wagmi-config.ts';

const walletIds = (list: ReturnType<typeof walletList>) => list.flatMap((g) => g.wallets.map((w) => w({ projectId: 'p', appName: 'a' } as never).id));

afterEach(() => vi.unstubAllGlobals());

describe('the dashboard as a Safe App', () => {
  it('lets Safe{Wallet} frame it by default, the hosts a build names instead, or nobody with "none"', () => {
    const frameAncestors = (env: Record<string, string>) => parsePolicy(headerPolicy("default-src 'self'", endpointsFromEnv(env).safeAppOrigins)).get('frame-ancestors');
    expect(frameAncestors({})).toEqual([SAFE_WALLET_ORIGIN]);
    expect(frameAncestors({ VITE_SAFE_APP_ORIGINS: 'https://safe.example.org/ http://127.0.0.1:9000' })).toEqual(['https://safe.example.org', 'http://127.0.0.1:9000']);
    expect(frameAncestors({ VITE_SAFE_APP_ORIGINS: 'none' })).toEqual(["'none'"]);
    expect(() => endpointsFromEnv({ VITE_SAFE_APP_ORIGINS: 'javascript:alert(1)' })).toThrow(/must be http/);
    expect(() => endpointsFromEnv({ VITE_SAFE_APP_ORIGINS: 'app.safe.global' })).toThrow(/not an origin/);
  });

  it('lists the Safe connector only inside a frame, first, and only when some host may frame the dashboard', () => {
    expect(walletIds(walletList('injected', [SAFE_WALLET_ORIGIN]))).not.toContain('safe');
    const page = { parent: {} };
    vi.stubGlobal('window', page);
    expect(walletIds(walletList('injected', [SAFE_WALLET_ORIGIN]))[0]).toBe('safe');
    expect(walletIds(walletList('all', [SAFE_WALLET_ORIGIN]))[0]).toBe('safe');
    expect(walletIds(walletList('injected', []))).not.toContain('safe');
    // A top-level page is its own parent: no Safe.
    page.parent = page;
    expect(walletIds(walletList('injected', [SAFE_WALLET_ORIGIN]))).not.toContain('safe');
  });
});
