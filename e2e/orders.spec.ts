import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { signIn } from './support/pages.ts';
import { checkoutPage } from './pages/checkout.ts';
import { isOrderPoll, orderIdFromUrl, orderPage } from './pages/orders.ts';
import { startSlowOrderService, useService } from './pages/orders-service.ts';

const PROCESSING_MS = 12_000;
const run = Date.now().toString(36);

test.describe('live orders', () => {
  test.describe.configure({ timeout: 90_000 });
  test.use({ walletKeys: [generatePrivateKey()] });

  let service: Awaited<ReturnType<typeof startSlowOrderService>>;
  test.beforeAll(async () => {
    service = await startSlowOrderService(PROCESSING_MS);
  });
  test.afterAll(async () => {
    await service?.stop();
  });

  async function buy(page: import('@playwright/test').Page, wallet: import('./support/test-wallet.ts').TestWallet, domain: string, years: number) {
    await useService(page, service.apiUrl);
    await page.goto('/');
    await signIn(page, wallet);
    const checkout = checkoutPage(page);
    await checkout.open(domain, years);
    await expect(checkout.balance).toHaveText(/^\$/);
    if (await checkout.missing.isVisible()) await checkout.faucet.click();
    await expect(checkout.missing).toHaveCount(0);
    await checkout.pay.click();
    await expect(page).toHaveURL(/\/orders\/[^/]+$/);
    return orderIdFromUrl(page.url());
  }

  test('the order page polls every 5 s from CREATED to SUCCEEDED, and not once after', async ({ page, wallet }) => {
    const polls: number[] = [];
    let createdAt = 0;
    page.on('request', (r) => {
      if (isOrderPoll(r)) polls.push(Date.now());
    });
    page.on('response', (r) => {
      if (r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/orders/register-domain')) createdAt = Date.now();
    });
    const domain = `watch-${run}.com`;
    const orderId = await buy(page, wallet, domain, 2);
    const order = orderPage(page);
    await expect(order.status).toHaveText(/Created|Processing/);
    await expect(page.getByText('Checking every 5 seconds')).toBeVisible();
    await order.expectStatus('Succeeded', PROCESSING_MS + 15_000);
    await expect(order.timeline).toContainText('Succeeded');
    await expect(order.manageRecords(domain)).toBeVisible();

    const finishedAt = polls.length;
    // The page starts from the create answer, so its first question comes one interval later, not at once.
    expect(createdAt).toBeGreaterThan(0);
    expect(polls[0] - createdAt, 'first poll after the order was created').toBeGreaterThan(4_500);
    expect(finishedAt, 'one poll per 5 s of processing').toBeGreaterThanOrEqual(Math.ceil(PROCESSING_MS / 5000));
    expect(finishedAt).toBeLessThanOrEqual(Math.ceil(PROCESSING_MS / 5000) + 1);
    const gaps = polls.slice(1).map((t, i) => t - polls[i]);
    for (const gap of gaps) {
      expect(gap, `gaps between polls: ${gaps.join(', ')} ms`).toBeGreaterThan(4_500);
      expect(gap).toBeLessThan(6_500);
    }
    // Asserting an absence: no GET /orders/{id} may come in the next two intervals.
    await expect(page.waitForRequest((r) => isOrderPoll(r, orderId), { timeout: 11_000 })).rejects.toThrow();
    expect(polls).toHaveLength(finishedAt);
  });

  test('a reload mid-order keeps following it on any page, and a toast says when it finishes', async ({ page, wallet }) => {
    const domain = `follow-${run}.com`;
    const orderId = await buy(page, wallet, domain, 1);
    await expect(orderPage(page).status).toHaveText(/Created|Processing/);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
    await page.reload();
    // After the reload, on the search page, the watcher still asks about the order.
    await page.waitForRequest((r) => isOrderPoll(r, orderId), { timeout: 10_000 });
    const toast = page.getByRole('status').filter({ hasText: `${domain}: succeeded` });
    await expect(toast).toBeVisible({ timeout: PROCESSING_MS + 15_000 });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
    const list = page.getByRole('list', { name: 'Orders' });
    await expect(list.getByRole('listitem').first()).toContainText(domain);
    await expect(list.getByRole('listitem').first()).toContainText('Succeeded');
    await expect(page.waitForRequest((r) => isOrderPoll(r, orderId), { timeout: 6_000 })).rejects.toThrow();
  });
});
