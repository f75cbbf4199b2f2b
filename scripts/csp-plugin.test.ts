import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePolicy } from '../src/app/csp.ts';
import { inlineScriptHashes, policyInHtml } from './csp-plugin.ts';

const API_URL = 'https://api.csp-test.example/v-next';
const RPC_URL = 'https://rpc.csp-test.example/mainnet';

describe('the production build carries a strict Content-Security-Policy', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'namefi-csp-build-'));
  let html = '';
  beforeAll(() => {
    const started = Date.now();
    const env: NodeJS.ProcessEnv = { ...process.env, VITE_API_URL: API_URL, VITE_RPC_1: RPC_URL };
    // Only what this build is given counts: no endpoint leaks in from the shell running the tests.
    for (const key of Object.keys(env)) if (/^VITE_(RPC_|LOCAL_|CSP_)/.test(key) && key !== 'VITE_RPC_1') delete env[key];
    const build = spawnSync('node_modules/.bin/vite', ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], { env, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    html = readFileSync(join(outDir, 'index.html'), 'utf8');
    console.log(`vite build for the CSP check took ${Date.now() - started} ms`);
  }, 180_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('puts the policy in index.html before any script or stylesheet', () => {
    const policy = policyInHtml(html);
    expect(policy).toBeDefined();
    const at = html.indexOf('http-equiv="Content-Security-Policy"');
    expect(at).toBeLessThan(html.search(/<script|<link rel="(stylesheet|modulepreload)"/));
  });

  it('allows no inline or evaluated script, and connects only to the configured service and RPC', () => {
    const policy = parsePolicy(policyInHtml(html)!);
    const scripts = policy.get('script-src')!;
    expect(scripts[0]).toBe("'self'");
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(policy.get('default-src')).toEqual(["'self'"]);
    // The DoH resolver "Is it live?" asks: a public one for a build pointed beyond this machine (never asked in tests).
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://api.csp-test.example', 'https://cloudflare-dns.com', 'https://rpc.csp-test.example']);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.has('frame-ancestors'), 'ignored in a meta policy').toBe(false);
  });

  it('has no inline <script> the policy does not name by hash', () => {
    const allowed = parsePolicy(policyInHtml(html)!).get('script-src')!;
    for (const [tag, body] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
      if (/\bsrc=/.test(tag)) continue;
      const hash = createHash('sha256').update(body).digest('base64');
      expect(allowed, `inline script ${body.slice(0, 60)}`).toContain(`'sha256-${hash}'`);
    }
  });
});

describe('inline script hashes', () => {
  it('hashes the text of inline scripts and skips those loaded from a file', () => {
    const page = '<script type="module" src="/a.js"></script><script>window.x = 1;</script>';
    expect(inlineScriptHashes(page)).toEqual([createHash('sha256').update('window.x = 1;').digest('base64')]);
  });
});
