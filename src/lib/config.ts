import { DEFAULT_HEADER_PREFIX } from '#core/headers.ts';
import { readStored, STORAGE_KEYS } from './settings/storage.ts';
import { endpointsFromEnv } from './endpoints.ts';

type WalletMode = 'all' | 'injected';

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
  /** Origins that may host the dashboard as a Safe App (see endpoints.ts). */
  safeAppOrigins: string[];
  /** The DoH resolver asked whether a record is live (see endpoints.ts). */
  dohUrl: string;
}

export { isLocalUrl, normaliseServiceUrl } from './endpoints.ts';

type Env = ImportMetaEnv & Record<string, string | undefined>;

/** Builds the configuration from the build's environment and the person's stored service choice. */
export function buildConfig(env: Env, storedServiceUrl?: string): DashboardConfig {
  const endpoints = endpointsFromEnv(env, storedServiceUrl);
  return {
    apiBaseUrl: endpoints.apiBaseUrl,
    defaultApiBaseUrl: endpoints.defaultApiBaseUrl,
    headerPrefix: env.VITE_HEADER_PREFIX || DEFAULT_HEADER_PREFIX,
    isLocalService: endpoints.isLocalService,
    walletMode: env.VITE_WALLETS === 'injected' ? 'injected' : 'all',
    siweDomain: env.VITE_SIWE_DOMAIN || undefined,
    // WalletConnect needs a project id to open; one from the environment, else a placeholder that
    // only fails when a person picks a WalletConnect-based wallet.
    walletConnectProjectId: env.VITE_WALLETCONNECT_PROJECT_ID || 'namefi-dashboard-dev',
    appName: env.VITE_APP_NAME || 'Namefi Dashboard',
    rpcUrls: endpoints.rpcUrls,
    includeLocalChain: endpoints.includeLocalChain,
    safeAppOrigins: endpoints.safeAppOrigins,
    dohUrl: endpoints.dohUrl,
  };
}

export const config: DashboardConfig = buildConfig(
  import.meta.env as Env,
  readStored<string>(STORAGE_KEYS.serviceUrl),
);
