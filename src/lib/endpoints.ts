/**
 * The network endpoints a build is configured with, read from its environment. Kept free of imports and of
 * import.meta so that vite.config.ts (the Content-Security-Policy plugin) reads them exactly as the app does.
 */
const LOCAL_SERVICE_URL = 'http://127.0.0.1:8787/v-next';
const LOCAL_CHAIN_RPC_URL = 'http://127.0.0.1:8545';
/** Safe{Wallet}'s web app: the host that opens the dashboard as a Safe App unless VITE_SAFE_APP_ORIGINS says otherwise. */
export const SAFE_WALLET_ORIGIN = 'https://app.safe.global';

export type EndpointEnv = Record<string, string | boolean | undefined>;

export interface Endpoints {
  /** The service the build was configured with (Settings can override it per browser). */
  defaultApiBaseUrl: string;
  apiBaseUrl: string;
  isLocalService: boolean;
  includeLocalChain: boolean;
  /** Explicit RPC URL per chain id; a chain without one gets a transport that never reaches a network. */
  rpcUrls: Record<number, string | undefined>;
  /**
   * The origins that may frame the dashboard as a Safe App (CSP frame-ancestors) and whose Safe Apps SDK messages
   * the Safe connector answers. VITE_SAFE_APP_ORIGINS, space-separated; "none" for no Safe App at all.
   */
  safeAppOrigins: string[];
  /** The DoH resolver (RFC 8484) the dashboard asks whether a record is live: VITE_DOH_URL, else the local service's /dns-query, else a public one. */
  dohUrl: string;
}

/** The public DoH resolver used against production when VITE_DOH_URL names none. */
const PUBLIC_DOH_URL = 'https://cloudflare-dns.com/dns-query';

export function isLocalUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost');
  } catch {
    return false;
  }
}

export function normaliseServiceUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

function flag(value: string | boolean | undefined): boolean | undefined {
  if (value === true || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  return undefined;
}

function text(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

export function endpointsFromEnv(env: EndpointEnv, storedServiceUrl?: string): Endpoints {
  const defaultApiBaseUrl = normaliseServiceUrl(text(env.VITE_API_URL) ?? LOCAL_SERVICE_URL);
  const apiBaseUrl = storedServiceUrl ? normaliseServiceUrl(storedServiceUrl) : defaultApiBaseUrl;
  const isLocalService = flag(env.VITE_LOCAL_SERVICE) ?? isLocalUrl(apiBaseUrl);
  return {
    defaultApiBaseUrl,
    apiBaseUrl,
    isLocalService,
    includeLocalChain: flag(env.VITE_LOCAL_CHAIN) ?? isLocalService,
    dohUrl: text(env.VITE_DOH_URL) ?? (isLocalUrl(defaultApiBaseUrl) ? `${new URL(defaultApiBaseUrl).origin}/dns-query` : PUBLIC_DOH_URL),
    rpcUrls: {
      1: text(env.VITE_RPC_1),
      8453: text(env.VITE_RPC_8453),
      11155111: text(env.VITE_RPC_11155111),
      46630: text(env.VITE_RPC_46630),
      31337: text(env.VITE_RPC_31337) ?? LOCAL_CHAIN_RPC_URL,
    },
    safeAppOrigins: safeAppOrigins(text(env.VITE_SAFE_APP_ORIGINS)),
  };
}

function safeAppOrigins(value: string | undefined): string[] {
  if (value === undefined) return [SAFE_WALLET_ORIGIN];
  const items = value.split(/\s+/).filter(Boolean);
  if (items.length === 1 && items[0] === 'none') return [];
  return items.map((item) => {
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      throw new Error(`VITE_SAFE_APP_ORIGINS: ${JSON.stringify(item)} is not an origin`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`VITE_SAFE_APP_ORIGINS: ${item} must be http(s)`);
    return url.origin;
  });
}
