/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the service, ending in /v-next. Default: the local service on 127.0.0.1:8787. */
  readonly VITE_API_URL?: string;
  /** The service name in header names (x-<prefix>-signer …). Default: namefi. */
  readonly VITE_HEADER_PREFIX?: string;
  /** 'all' (production wallets) or 'injected' (only the browser's own / EIP-6963 wallets; used by e2e). */
  readonly VITE_WALLETS?: string;
  /** Host the SIWE message must name; default: this page's host. */
  readonly VITE_SIWE_DOMAIN?: string;
  /** Set to 'true'/'false' to override whether the service is the local one (enables the faucet). */
  readonly VITE_LOCAL_SERVICE?: string;
  readonly VITE_WALLETCONNECT_PROJECT_ID?: string;
  readonly VITE_APP_NAME?: string;
  /** Explicit RPC URLs, one per chain. A chain without one never reaches a network. */
  readonly VITE_RPC_1?: string;
  readonly VITE_RPC_8453?: string;
  readonly VITE_RPC_11155111?: string;
  readonly VITE_RPC_46630?: string;
  readonly VITE_RPC_31337?: string;
  /** More origins the production Content-Security-Policy lets the page connect to, space-separated. */
  readonly VITE_CSP_CONNECT_SRC?: string;
  /** The DoH resolver (RFC 8484) asked whether a record is live; default: the local service's /dns-query, else a public one. */
  readonly VITE_DOH_URL?: string;
  /** Include the local chain 31337; default: whenever the service is the local one. */
  readonly VITE_LOCAL_CHAIN?: string;
  /** 'true' only in the build `npm run bench:records` measures: the records table sets its performance marks. */
  readonly VITE_BENCH_MARKS?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
