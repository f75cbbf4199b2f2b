import { endpointsFromEnv, type EndpointEnv } from '../lib/endpoints.ts';

/**
 * The production build's Content-Security-Policy, computed from the same environment the app reads its
 * endpoints from. Pure, so the build plugin (scripts/csp-plugin.ts), the tests and Settings share it.
 *
 * - script-src: only files from this origin, plus the hash of any inline script the HTML ends up with
 *   (the build emits none today; the hash keeps a future one working without 'unsafe-inline').
 * - style-src 'unsafe-inline': the wallet layer inserts <style> elements whose text is computed at run time
 *   (react-remove-scroll writes the measured scrollbar width; RainbowKit its theme variables; the wallet
 *   SDKs their resets), so no fixed hash can cover them and a static site has no per-response nonce. Styles
 *   cannot run script, and the usual CSS leak (a selector that loads url(…)) is closed by img-src/font-src.
 * - connect-src: this origin, the configured service (any port on this machine when that service is local), the DoH resolver (VITE_DOH_URL) and the RPC URLs of the chains the build offers, plus
 *   VITE_CSP_CONNECT_SRC (space-separated origins, e.g. a WalletConnect relay when that wallet is configured).
 * - frame-ancestors cannot be delivered in a <meta> element (browsers ignore it there and say so in the
 *   console); it is only in the header form, which `vite preview` sends and a real host should send too.
 */
export interface CspOptions {
  /** Inline scripts' sha256 hashes, base64, as found in the built HTML. */
  scriptHashes?: readonly string[];
}

const EXTRA_CONNECT_KEY = 'VITE_CSP_CONNECT_SRC';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const LOCAL_ANY_PORT = ['http://127.0.0.1:*', 'http://localhost:*'];

function originOf(url: string, what: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${what} is not a URL: ${JSON.stringify(url)}`);
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) throw new Error(`${what} must be http(s) or ws(s): ${url}`);
  return parsed.origin;
}

/** The origins, besides the page's own, that the dashboard may connect to. */
export function connectOrigins(env: EndpointEnv): string[] {
  const endpoints = endpointsFromEnv(env);
  const api = originOf(endpoints.defaultApiBaseUrl, 'VITE_API_URL');
  const origins = [api, originOf(endpoints.dohUrl, 'VITE_DOH_URL')];
  // A build for the local service may be pointed at another local one in Settings (another port, a second
  // instance): any port on this machine, and nothing beyond it.
  if (LOOPBACK.has(new URL(api).hostname)) origins.push(...LOCAL_ANY_PORT);
  for (const [chainId, url] of Object.entries(endpoints.rpcUrls)) {
    if (!url || (Number(chainId) === 31337 && !endpoints.includeLocalChain)) continue;
    origins.push(originOf(url, `VITE_RPC_${chainId}`));
  }
  const extra = env[EXTRA_CONNECT_KEY];
  if (typeof extra === 'string') {
    for (const item of extra.split(/\s+/).filter(Boolean)) origins.push(originOf(item, EXTRA_CONNECT_KEY));
  }
  return [...new Set(origins)];
}

function cspDirectives(env: EndpointEnv, options: CspOptions = {}): Array<[string, string[]]> {
  const hashes = (options.scriptHashes ?? []).map((hash) => `'sha256-${hash}'`);
  return [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...hashes]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...connectOrigins(env)]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
  ];
}

/** The policy as a <meta http-equiv> carries it. */
export function metaPolicy(env: EndpointEnv, options: CspOptions = {}): string {
  return cspDirectives(env, options)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * The same policy as an HTTP header, which can also forbid framing: only the Safe App hosts (VITE_SAFE_APP_ORIGINS)
 * may frame the dashboard, which is what opening it as a Safe App needs; with none, nobody may.
 */
export function headerPolicy(meta: string, frameAncestors: readonly string[] = []): string {
  return `${meta}; frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`;
}

/** Parses a policy string into directive → values, for checks and tests. */
export function parsePolicy(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name && !directives.has(name)) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

/** Whether this build's policy lets the dashboard reach a service at `url` (Settings refuses any other). */
export function serviceAllowed(url: string, allowedOrigins: readonly string[], pageOrigin?: string): boolean {
  try {
    const parsed = new URL(url);
    const anyPort = `${parsed.protocol}//${parsed.hostname}:*`;
    return parsed.origin === pageOrigin || allowedOrigins.includes(parsed.origin) || allowedOrigins.includes(anyPort);
  } catch {
    return false;
  }
}
