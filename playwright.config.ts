import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, freePortBelowEphemeral } from './test/support/ports.ts';

/**
 * Browser journeys against the real local service and the built dashboard. Ports and the data dir are
 * chosen once, in the main process, and handed to workers through the environment (workers inherit it
 * and re-evaluating this file keeps the values already set).
 */
if (!process.env.E2E_SERVICE_PORT) {
  process.env.E2E_SERVICE_PORT = String(await freePort());
  process.env.E2E_DASHBOARD_PORT = String(await freePort());
  process.env.E2E_CHAIN_PORT = String(await freePort());
  // Listened on only when the Safe App journey runs, minutes later: a port no connection made meanwhile can take.
  process.env.E2E_SAFE_HOST_PORT = String(await freePortBelowEphemeral());
  process.env.E2E_DNS_PORT = String(await freePort());
  process.env.E2E_FORWARD_PORT = String(await freePort());
  process.env.E2E_DATA_DIR = mkdtempSync(join(tmpdir(), 'namefi-e2e-data-'));
  process.env.E2E_BUILD_DIR = mkdtempSync(join(tmpdir(), 'namefi-e2e-build-'));
}
const servicePort = process.env.E2E_SERVICE_PORT;
const dashboardPort = process.env.E2E_DASHBOARD_PORT!;
const chainPort = process.env.E2E_CHAIN_PORT!;
const serviceOrigin = `http://127.0.0.1:${servicePort}`;
const dashboardHost = `127.0.0.1:${dashboardPort}`;
process.env.E2E_API_URL = `${serviceOrigin}/v-next`;
process.env.E2E_DASHBOARD_URL = `http://${dashboardHost}`;
// The service starts anvil on this port; journeys reach the same chain (e2e/support/chain.ts) and so does the
// dashboard's wagmi transport for chain 31337.
process.env.E2E_CHAIN_RPC_URL = `http://127.0.0.1:${chainPort}`;

export default defineConfig({
  testDir: './e2e',
  // Several people may run journeys in one checkout; each run can keep its artifacts apart.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  // Files run two at a time (a file's journeys in order, in one worker): every journey works on names and keys of
  // its own, so two never meet, and on two cores a journey spends about half its time waiting for the service,
  // the chain or the browser. E2E_WORKERS=1 runs them one by one.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // No retries anywhere: a journey that passes only on its second try is a bug to fix, not to hide.
  retries: 0,
  forbidOnly: true,
  // Two files run at once on two cores: a journey takes up to about twice as long as it would alone.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    ...devices['Desktop Chrome'],
    baseURL: process.env.E2E_DASHBOARD_URL,
    channel: undefined,
    // A trace snapshots the page at every action, which on two cores costs each journey time whether it fails or
    // not; E2E_TRACE=1 keeps one for each failing journey when there is one to look into.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: [
    {
      command: 'node --import tsx server/main.ts',
      url: `${serviceOrigin}/v-next/siwe/allowed-chains`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(servicePort),
        HOST: '127.0.0.1',
        DATA_DIR: process.env.E2E_DATA_DIR!,
        ORDER_PROCESSING_MS: '400',
        SIWE_DOMAIN: dashboardHost,
        LOG_REQUESTS: 'false',
        // One address (127.0.0.1) sends every journey's requests, the dashboard's and the journeys' own set-up.
        RATE_LIMIT_PER_MINUTE: '20000',
        // Ownership, credit and contract-account signatures live on a real local chain, as with npm start.
        CHAIN: 'anvil',
        CHAIN_PORT: chainPort,
        // The service answers DNS for its zones, as with npm start: journeys check what dig answers.
        DNS_PORT: process.env.E2E_DNS_PORT!,
        // Its URL forwarder too: journeys follow a forwarded domain's redirect through it.
        FORWARD_PORT: process.env.E2E_FORWARD_PORT!,
        // The MCP server's prepare_signature links open this build (e2e/agent-sign.spec.ts).
        DASHBOARD_URL: process.env.E2E_DASHBOARD_URL!,
        // The import journey's old provider is BIND on loopback (e2e/import.spec.ts): a private address, allowed here only.
        SCAN_ALLOW_PRIVATE: 'true',
      },
    },
    {
      // A production build served by vite preview: no on-the-fly compiling or dependency re-optimising
      // in the middle of a journey, which on two cores is what makes dev-server runs flaky.
      command: `node_modules/.bin/vite build --outDir ${process.env.E2E_BUILD_DIR} --emptyOutDir --logLevel warn && node_modules/.bin/vite preview --outDir ${process.env.E2E_BUILD_DIR} --host 127.0.0.1 --port ${dashboardPort} --strictPort`,
      url: `http://${dashboardHost}/`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        VITE_API_URL: process.env.E2E_API_URL,
        VITE_WALLETS: 'injected',
        VITE_RPC_31337: process.env.E2E_CHAIN_RPC_URL,
        // The Safe App host of e2e/safe-app.spec.ts (another origin than the dashboard's): it alone may frame it.
        VITE_SAFE_APP_ORIGINS: `http://127.0.0.1:${process.env.E2E_SAFE_HOST_PORT}`,
        DASHBOARD_PORT: dashboardPort,
      },
    },
  ],
});
