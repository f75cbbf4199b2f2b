/** Set by playwright.config.ts in the main process; workers inherit them. */
export const API_URL = process.env.E2E_API_URL ?? 'http://127.0.0.1:8787/v-next';
export const DASHBOARD_URL = process.env.E2E_DASHBOARD_URL ?? 'http://127.0.0.1:5173';
