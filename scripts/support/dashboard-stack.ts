import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { freePort } from '../../test/support/ports.ts';
import { findBrowser } from '../find-browser.ts';

/**
 * What a browser benchmark runs against: the dashboard built for production, served by `vite preview`, and the
 * local service with a fresh database, both on free loopback ports. Everything is stopped and deleted on exit.
 */
export interface DashboardStack {
  apiUrl: string;
  baseUrl: string;
  /** The service's DNS server (UDP and TCP on 127.0.0.1), when asked for. */
  dnsPort?: number;
  launchBrowser(): Promise<Browser>;
}

const children: ChildProcess[] = [];
const temp: string[] = [];
export function stopStack(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
}
process.on('exit', stopStack);
process.on('SIGINT', () => process.exit(130));

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function startDashboardStack(
  name: string,
  options: { orderProcessingMs: number; dns?: boolean; env?: Record<string, string>; buildEnv?: Record<string, string> },
): Promise<DashboardStack> {
  const browser = await findBrowser();
  if ('error' in browser) throw new Error(browser.error);
  const servicePort = await freePort();
  const dashboardPort = await freePort();
  const dnsPort = options.dns ? await freePort() : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-data-`));
  const buildDir = mkdtempSync(join(tmpdir(), `${name}-build-`));
  temp.push(dataDir, buildDir);
  const apiUrl = `http://127.0.0.1:${servicePort}/v-next`;
  const baseUrl = `http://127.0.0.1:${dashboardPort}`;
  // The e2e service client and test wallet read these.
  process.env.E2E_API_URL = apiUrl;
  process.env.E2E_DASHBOARD_URL = baseUrl;

  console.log('Building the dashboard…');
  const build = spawnSync('node_modules/.bin/vite', ['build', '--outDir', buildDir, '--emptyOutDir', '--logLevel', 'error'], {
    stdio: 'inherit',
    env: { ...process.env, VITE_API_URL: apiUrl, VITE_WALLETS: 'injected', ...options.buildEnv },
  });
  if (build.status !== 0) throw new Error('vite build failed');

  const serviceEnv = {
    PORT: String(servicePort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ORDER_PROCESSING_MS: String(options.orderProcessingMs),
    LOG_REQUESTS: 'false',
    SIWE_DOMAIN: `127.0.0.1:${dashboardPort}`,
    ...(dnsPort ? { DNS_PORT: String(dnsPort) } : {}),
    ...options.env,
  };
  children.push(
    spawn('node', ['--import', 'tsx', 'server/main.ts'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...serviceEnv } }),
    spawn('node_modules/.bin/vite', ['preview', '--outDir', buildDir, '--host', '127.0.0.1', '--port', String(dashboardPort), '--strictPort'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, VITE_API_URL: apiUrl },
    }),
  );
  await waitFor(`${apiUrl}/siwe/allowed-chains`, 120_000);
  await waitFor(`${baseUrl}/`, 60_000);

  return {
    apiUrl,
    baseUrl,
    dnsPort,
    launchBrowser: () =>
      chromium.launch({
        executablePath: browser.path,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      }),
  };
}
