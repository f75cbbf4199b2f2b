/** Set by playwright.config.ts in the main process; workers inherit them. */
export const API_URL = process.env.E2E_API_URL ?? 'http://127.0.0.1:8787/v-next';
export const DASHBOARD_URL = process.env.E2E_DASHBOARD_URL ?? 'http://127.0.0.1:5173';
/** The service's data dir (its chain deployment lives in `<dir>/chain/deployment.json`) and its anvil. */
export const DATA_DIR = process.env.E2E_DATA_DIR ?? '.data';
export const CHAIN_RPC_URL = process.env.E2E_CHAIN_RPC_URL ?? 'http://127.0.0.1:8545';
/** Where e2e/support/safe-app-host.ts serves its Safe{Wallet} stand-in: the one origin the e2e build lets frame it. */
export const SAFE_HOST_PORT = Number(process.env.E2E_SAFE_HOST_PORT ?? 8790);
