import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { freePort } from '../../test/support/ports.ts';

/**
 * A second, real local service whose orders stay PROCESSING long enough to watch the order page poll
 * (the shared one finishes orders in 400 ms). The dashboard is pointed at it the way a person would:
 * the service URL setting, stored in the browser before the page loads.
 */
export async function startSlowOrderService(processingMs: number): Promise<{ apiUrl: string; stop(): Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'namefi-e2e-orders-'));
  const dashboardHost = new URL(process.env.E2E_DASHBOARD_URL ?? 'http://127.0.0.1:5173').host;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ORDER_PROCESSING_MS: String(processingMs),
      SIWE_DOMAIN: dashboardHost,
      LOG_REQUESTS: 'false',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const apiUrl = `http://127.0.0.1:${port}/v-next`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the order service exited: ${stderr}`);
    const ready = await fetch(`${apiUrl}/siwe/allowed-chains`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the order service did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    apiUrl,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Points the dashboard at another service through its stored setting, before any script runs. */
export async function useService(page: Page, apiUrl: string): Promise<void> {
  await page.addInitScript((url) => localStorage.setItem('namefi.dashboard.serviceUrl', JSON.stringify(url)), apiUrl);
}
