import { describe, expect, it } from 'vitest';
import { connectOrigins, headerPolicy, metaPolicy, parsePolicy, serviceAllowed } from './csp.ts';

describe('the Content-Security-Policy of a build', () => {
  it('lets a local build reach the local service (on any local port) and the local chain, and nothing else', () => {
    const policy = parsePolicy(metaPolicy({}));
    expect(policy.get('connect-src')).toEqual(["'self'", 'http://127.0.0.1:8787', 'http://127.0.0.1:*', 'http://localhost:*', 'http://127.0.0.1:8545']);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
    expect(policy.has('frame-ancestors')).toBe(false);
  });

  it('names the configured service and RPC origins of a production build; the local chain only when offered', () => {
    const env = {
      VITE_API_URL: 'https://api.namefi.io/v-next',
      VITE_RPC_1: 'https://eth.rpc.example/key/abc',
      VITE_RPC_8453: 'wss://base.rpc.example',
      VITE_RPC_31337: 'http://127.0.0.1:9999',
    };
    expect(connectOrigins(env)).toEqual(['https://api.namefi.io', 'https://cloudflare-dns.com', 'https://eth.rpc.example', 'wss://base.rpc.example']);
    // The DoH resolver that says whether a record is live: the configured one replaces the public default.
    expect(connectOrigins({ ...env, VITE_DOH_URL: 'https://dns.google/dns-query' })).toContain('https://dns.google');
    expect(connectOrigins({ ...env, VITE_DOH_URL: 'https://dns.google/dns-query' })).not.toContain('https://cloudflare-dns.com');
    expect(connectOrigins({ ...env, VITE_LOCAL_CHAIN: 'true' })).toContain('http://127.0.0.1:9999');
  });

  it('adds the extra origins a deployment lists, and refuses what is not an origin', () => {
    expect(connectOrigins({ VITE_API_URL: 'https://api.namefi.io/v-next', VITE_CSP_CONNECT_SRC: ' wss://relay.walletconnect.org  https://api.web3modal.org ' }))
      .toEqual(['https://api.namefi.io', 'https://cloudflare-dns.com', 'wss://relay.walletconnect.org', 'https://api.web3modal.org']);
    expect(() => connectOrigins({ VITE_CSP_CONNECT_SRC: "'unsafe-eval'" })).toThrow(/VITE_CSP_CONNECT_SRC is not a URL/);
    expect(() => connectOrigins({ VITE_API_URL: 'javascript:alert(1)' })).toThrow(/VITE_API_URL must be http/);
    expect(() => connectOrigins({ VITE_RPC_1: 'rpc.example' })).toThrow(/VITE_RPC_1 is not a URL/);
  });

  it('allows inline scripts only by hash, and forbids framing in the header form', () => {
    const policy = metaPolicy({}, { scriptHashes: ['abc='] });
    expect(parsePolicy(policy).get('script-src')).toEqual(["'self'", "'sha256-abc='"]);
    expect(parsePolicy(headerPolicy(policy)).get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('allows a service only at an origin the policy names, or the page’s own', () => {
    const allowed = connectOrigins({ VITE_API_URL: 'https://api.namefi.io/v-next' });
    expect(serviceAllowed('https://api.namefi.io/v-next', allowed)).toBe(true);
    expect(serviceAllowed('https://evil.example/v-next', allowed)).toBe(false);
    expect(serviceAllowed('https://api.namefi.io:8443/v-next', allowed)).toBe(false);
    expect(serviceAllowed('https://dash.example/v-next', allowed, 'https://dash.example')).toBe(true);
    expect(serviceAllowed('not a url', allowed)).toBe(false);
  });

  it('lets a build for the local service reach another local service, and nothing beyond this machine', () => {
    const allowed = connectOrigins({ VITE_API_URL: 'http://127.0.0.1:8787/v-next' });
    expect(allowed).toEqual(expect.arrayContaining(['http://127.0.0.1:8787', 'http://127.0.0.1:*', 'http://localhost:*']));
    expect(serviceAllowed('http://127.0.0.1:9999/v-next', allowed)).toBe(true);
    expect(serviceAllowed('http://localhost:4000/v-next', allowed)).toBe(true);
    expect(serviceAllowed('http://192.168.1.5:8787/v-next', allowed)).toBe(false);
    expect(serviceAllowed('https://127.0.0.1:9999/v-next', allowed)).toBe(false);
  });
});
