import { DEFAULT_HEADER_PREFIX } from '@/core/headers.ts';
import { readStored, STORAGE_KEYS } from './settings/storage.ts';

export type WalletMode = 'all' | 'injected';

export interface DashboardConfig {
  /** Base URL of the service, ending in /v-next. */
  apiBaseUrl: string;
  /** The URL the build was configured with (settings can override it per browser). */
  defaultApiBaseUrl: string;
  headerPrefix: string;
  /** True when talking to the local service: enables the faucet button and the local chain. */
  isLocalService: boolean;
  walletMode: WalletMode;
  /** The host a SIWE message must name; undefined = this page's host. */
  siweDomain?: string;
  walletConnectProjectId: string;
  appName: string;
  /** Explicit RPC URL per chain id; a chain without one gets a transport that never reaches a network. */
  rpcUrls: Record<number, string | undefined>;
  includeLocalChain: boolean;
}

export const LOCAL_SERVICE_URL = 'http://127.0.0.1:8787/v-next';

type Env = ImportMetaEnv & Record<string, string | undefined>;

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

function flag(value: string | undefined): boolean | undefined {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return undefined;
}

/** Builds the configuration from the build's environment and the person's stored service choice. */
export function buildConfig(env: Env, storedServiceUrl?: string): DashboardConfig {
  const defaultApiBaseUrl = normaliseServiceUrl(env.VITE_API_URL || LOCAL_SERVICE_URL);
  const apiBaseUrl = storedServiceUrl ? normaliseServiceUrl(storedServiceUrl) : defaultApiBaseUrl;
  const isLocalService = flag(env.VITE_LOCAL_SERVICE) ?? isLocalUrl(apiBaseUrl);
  return {
    apiBaseUrl,
    defaultApiBaseUrl,
    headerPrefix: env.VITE_HEADER_PREFIX || DEFAULT_HEADER_PREFIX,
    isLocalService,
    walletMode: env.VITE_WALLETS === 'injected' ? 'injected' : 'all',
    siweDomain: env.VITE_SIWE_DOMAIN || undefined,
    // WalletConnect needs a project id to open; one from the environment, else a placeholder that
    // only fails when a person picks a WalletConnect-based wallet.
    walletConnectProjectId: env.VITE_WALLETCONNECT_PROJECT_ID || 'namefi-dashboard-dev',
    appName: env.VITE_APP_NAME || 'Namefi Dashboard',
    rpcUrls: {
      1: env.VITE_RPC_1,
      8453: env.VITE_RPC_8453,
      11155111: env.VITE_RPC_11155111,
      46630: env.VITE_RPC_46630,
      31337: env.VITE_RPC_31337 || 'http://127.0.0.1:8545',
    },
    includeLocalChain: flag(env.VITE_LOCAL_CHAIN) ?? isLocalService,
  };
}

export const config: DashboardConfig = buildConfig(
  import.meta.env as Env,
  readStored<string>(STORAGE_KEYS.serviceUrl),
);
