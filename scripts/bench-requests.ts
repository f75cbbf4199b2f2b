import { expect, type Page } from '@playwright/test';
import { generatePrivateKey } from 'viem/accounts';
import { startDashboardStack, stopStack } from './support/dashboard-stack.ts';

/**
 * `npm run bench:requests`: a scripted session in Chromium against the built dashboard and the local
 * service (sign in, search, buy, watch the order to the end, add and edit a record) that counts every
 * request the dashboard sends to the service. Prints requests per minute over the session and in its
 * busiest minute. The budget is the busiest 60-second window: at most 30 requests (half of the 60 per minute per
 * client IP production allows); the rate over the whole session is printed beside it.
 *
 * The session goes at a person's pace, told by three settings (0 for both pauses gives the compressed
 * worst case, which the output also names):
 * - BENCH_THINK_MS (default 4000): the pause between steps, a person reading the page;
 * - BENCH_WALLET_MS (default 3000): a person reading a request in the wallet (connect, each signature)
 *   before approving it; the dashboard shows what is signed first, and a wallet shows it again;
 * - BENCH_ORDER_MS (default 12000): how long an order stays PROCESSING.
 */
const TARGET_BUSIEST_WINDOW = 30;
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 4000);
const ORDER_MS = Number(process.env.BENCH_ORDER_MS ?? 12000);
const WALLET_MS = Number(process.env.BENCH_WALLET_MS ?? 3000);


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


interface Sent {
  at: number;
  method: string;
  path: string;
  /** The operation a types-for-method request asks about: one request per operation and session is expected. */
  operation?: string;
  step: string;
}

/** Method and path, with order ids folded so that the polls of one order read as one line. */
function shownPath(s: Sent): string {
  const path = s.method === 'GET' ? s.path.replace(/\/orders\/[^/]+$/, '/orders/{id}') : s.path;
  return `${s.method} ${path}${s.operation ? `?method=${s.operation}` : ''}`;
}

/** The most requests inside any 60-second window of the session. */
function busiestMinute(sent: Sent[]): number {
  let best = 0;
  let start = 0;
  for (let end = 0; end < sent.length; end++) {
    while (sent[end].at - sent[start].at >= 60_000) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

async function session(page: Page, baseUrl: string, apiUrl: string, wallet: import('../e2e/support/test-wallet.ts').TestWallet, mark: (step: string) => void) {
  const { signIn } = await import('../e2e/support/pages.ts');
  const { recordsPage } = await import('../e2e/pages/records.ts');
  const domain = `bench-${Date.now().toString(36)}.com`;
  void apiUrl;

  mark('sign in');
  await page.goto(`${baseUrl}/`);
  await signIn(page, wallet);
  await sleep(THINK_MS);

  mark('search');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
  await page.getByRole('searchbox', { name: 'Domain name' }).pressSequentially(domain, { delay: 120 });
  const buy = page.getByRole('button', { name: `Buy ${domain}`, exact: true });
  await expect(buy.first()).toBeVisible({ timeout: 20_000 });
  await sleep(THINK_MS);

  mark('checkout');
  await buy.first().click();
  await expect(page.getByRole('heading', { name: domain, exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel('Your balance', { exact: true })).toHaveText(/^\$/);
  await page.getByRole('button', { name: 'Add test credit' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /more credit/ })).toHaveCount(0, { timeout: 20_000 });
  await sleep(THINK_MS);
  await page.getByRole('button', { name: /^Pay .* and register$/ }).click();

  mark('watch the order');
  await expect(page).toHaveURL(/\/orders\/[^/]+$/, { timeout: 20_000 });
  await expect(page.getByRole('status', { name: 'Order status' })).toHaveText('Succeeded', { timeout: ORDER_MS + 30_000 });
  await sleep(THINK_MS);

  mark('edit a record');
  await page.getByRole('link', { name: `Manage the records of ${domain}` }).click();
  const records = recordsPage(page);
  await expect(page.getByRole('heading', { name: 'DNS records' })).toBeVisible({ timeout: 20_000 });
  await sleep(THINK_MS);
  await records.addAndSign('A', 'www', { 'IPv4 address': '192.0.2.80' });
  await expect(records.row('A', 'www')).toContainText('192.0.2.80', { timeout: 20_000 });
  await sleep(THINK_MS);
  const form = await records.edit('A', 'www');
  await form.getByLabel('IPv4 address', { exact: true }).fill('192.0.2.81');
  await form.getByRole('button', { name: 'Save and sign' }).click();
  await expect(records.row('A', 'www')).toContainText('192.0.2.81', { timeout: 20_000 });
  await sleep(THINK_MS);
  mark('end');
}

async function main() {
  const stack = await startDashboardStack('bench-requests', { orderProcessingMs: ORDER_MS });
  const { apiUrl, baseUrl } = stack;

  const { TestWallet } = await import('../e2e/support/test-wallet.ts');
  const launched = await stack.launchBrowser();
  const sent: Sent[] = [];
  const steps: Array<{ step: string; at: number }> = [];
  let step = 'start';
  try {
    const context = await launched.newContext();
    const page = await context.newPage();
    const wallet = new TestWallet([generatePrivateKey()], 31337);
    wallet.approvalDelayMs = WALLET_MS;
    // tsx compiles with esbuild's keepNames, so functions handed to the page call a __name helper
    // that only exists in Node; Playwright's own runner does not add it.
    await page.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((target) => target);' });
    await wallet.install(page);
    page.on('request', (request) => {
      if (!request.url().startsWith(apiUrl)) return;
      const url = new URL(request.url());
      const path = url.pathname.replace('/v-next', '');
      const asked = path === '/eip712/types-for-method' ? (url.searchParams.get('method') ?? '') : undefined;
      sent.push({ at: Date.now(), method: request.method(), path, operation: asked, step });
    });
    try {
      await session(page, baseUrl, apiUrl, wallet, (next) => {
        step = next;
        steps.push({ step: next, at: Date.now() });
      });
    } catch (error) {
      if (process.env.BENCH_SCREENSHOT) await page.screenshot({ path: process.env.BENCH_SCREENSHOT });
      throw error;
    }
  } finally {
    await launched.close();
  }

  const started = steps[0].at;
  const ended = steps.at(-1)!.at;
  const minutes = (ended - started) / 60_000;
  const perMinute = sent.length / minutes;
  const busiest = busiestMinute(sent);
  console.log(`\nRequests the dashboard sent to the service in one scripted session (${(minutes * 60).toFixed(0)} s, think time ${THINK_MS} ms, wallet approvals ${WALLET_MS} ms, orders processing ${ORDER_MS} ms):`);
  for (let i = 0; i < steps.length - 1; i++) {
    const inStep = sent.filter((s) => s.step === steps[i].step);
    const byPath = new Map<string, number>();
    for (const s of inStep) {
      const key = shownPath(s);
      byPath.set(key, (byPath.get(key) ?? 0) + 1);
    }
    const seconds = ((steps[i + 1].at - steps[i].at) / 1000).toFixed(0);
    console.log(`  ${steps[i].step.padEnd(16)} ${String(inStep.length).padStart(3)} requests in ${seconds.padStart(3)} s: ${[...byPath].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  }
  console.log(`  total            ${sent.length} requests`);
  const ok = busiest <= TARGET_BUSIEST_WINDOW;
  console.log(`  per minute       ${perMinute.toFixed(1)} over the session; busiest 60 s: ${busiest}   target <= ${TARGET_BUSIEST_WINDOW} in any 60 s  ${ok ? 'OK' : 'OVER'}`);
  console.log('\nOne by one, seconds into the session:');
  for (const s of sent) console.log(`  +${((s.at - started) / 1000).toFixed(1).padStart(5)} s  ${s.step.padEnd(16)} ${shownPath(s)}`);
  process.exitCode = ok ? 0 : 1;
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(stopStack);
