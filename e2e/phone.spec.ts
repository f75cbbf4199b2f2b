import type { Page } from '@playwright/test';
import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { TEST_KEYS } from './support/keys.ts';
import { header, resumeSession } from './support/pages.ts';
import { ownDomain } from './support/service-client.ts';
import { checkoutPage } from './pages/checkout.ts';
import { orderPage } from './pages/orders.ts';
import { recordsPage } from './pages/records.ts';

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}.com`;

/** Nothing on the page is wider than the screen: no sideways scroll anywhere. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  expect(scrollWidth, `page ${page.url()} is ${scrollWidth}px wide on a ${clientWidth}px screen`).toBeLessThanOrEqual(clientWidth);
}

/** The header is one row: at most one button's height plus its padding. */
async function expectOneRowHeader(page: Page): Promise<void> {
  const box = await page.getByRole('banner').boundingBox();
  expect(box?.height ?? 0).toBeLessThanOrEqual(64);
}

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test.describe.configure({ timeout: 180_000 });

  test('records are cards: add, edit and delete with nothing off-screen sideways', async ({ page, wallet }) => {
    const domain = unique('phone');
    await ownDomain(TEST_KEYS.alice, domain);
    const records = recordsPage(page);
    await resumeSession(page, wallet);
    await expectOneRowHeader(page);
    await records.open(domain);
    // No table on a phone: cards with every field in words.
    await expect(page.getByRole('table')).toHaveCount(0);
    const parked = page.getByRole('article').filter({ hasText: '34.123.0.161' });
    await expect(parked).toContainText('read-only');
    await expectNoSidewaysScroll(page);

    await records.addAndSign('A', 'web', { 'IPv4 address': '192.0.2.10' });
    const card = page.getByRole('article', { name: 'A record web', exact: true });
    await expect(card).toContainText('192.0.2.10');
    await expect(card).toContainText('TTL');
    await expectNoSidewaysScroll(page);

    const form = await records.edit('A', 'web');
    await expectNoSidewaysScroll(page);
    await form.getByLabel('IPv4 address', { exact: true }).fill('192.0.2.20');
    await form.getByRole('button', { name: 'Save and sign' }).click();
    await expect(form).toBeHidden();
    await expect(card).toContainText('192.0.2.20');

    // A burst of messages is one stack, not a wall over the cards; a success goes by itself, quickly.
    const toasts = page.locator('[aria-live="polite"] [role="status"], [aria-live="polite"] [role="alert"]');
    expect(await toasts.count()).toBeLessThanOrEqual(3);
    await expect(toasts).toHaveCount(0, { timeout: 5_000 });

    const deleteButton = page.getByRole('button', { name: 'Delete A record web', exact: true });
    await deleteButton.scrollIntoViewIfNeeded();
    await expect(deleteButton).toBeInViewport();
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page);
    await deleteButton.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete and sign' }).click();
    await expect(card).toHaveCount(0);
    await expectNoSidewaysScroll(page);
  });

  test.describe('a purchase', () => {
    test.use({ walletKeys: [generatePrivateKey()] });

    test('checkout keeps Pay in view; the order and the orders list fit the screen', async ({ page, wallet }) => {
      const domain = unique('pocket');
      await resumeSession(page, wallet);
      const checkout = checkoutPage(page);
      await checkout.open(domain, 1);
      await expect(checkout.balance).toHaveText(/^\$/);
      if (await checkout.missing.isVisible()) await checkout.addTestCredit();
      await expect(checkout.missing).toHaveCount(0);
      await expectOneRowHeader(page);
      await expectNoSidewaysScroll(page);

      // The form is taller than the screen; the summary with Pay stays in view wherever the person is in it.
      const summary = page.getByTestId('checkout-summary');
      await expect(summary).toContainText(domain);
      await expect(summary).toContainText('1 year');
      await expect(checkout.pay).toBeInViewport();
      await page.getByRole('button', { name: 'Add a blank record' }).click();
      await page.getByRole('button', { name: 'Add a blank record' }).click();
      await checkout.years.scrollIntoViewIfNeeded();
      await expect(checkout.pay).toBeInViewport();
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect(checkout.pay).toBeInViewport();
      await expectNoSidewaysScroll(page);
      await expectNoSeriousA11yViolations(page);

      // Blank records would be refused: remove them again before paying.
      for (let n = 0; n < 2; n++) await page.getByRole('button', { name: /^Remove record/ }).last().click();
      await checkout.pay.click();
      await expect(page).toHaveURL(/\/orders\/[^/]+$/);
      await orderPage(page).expectStatus('Succeeded', 30_000);
      await expectNoSidewaysScroll(page);
      await expectNoSeriousA11yViolations(page);

      await page.getByRole('button', { name: 'Menu and account' }).click();
      const menu = page.locator('#phone-menu');
      await expect(menu.getByRole('group', { name: 'Account' })).toContainText('$');
      await menu.getByRole('link', { name: 'Orders' }).click();
      await expect(page.getByRole('list', { name: 'Orders' })).toContainText(domain);
      await expectOneRowHeader(page);
      await expectNoSidewaysScroll(page);
      await expectNoSeriousA11yViolations(page);

      // Signing out lives in the menu on a phone.
      await page.getByRole('button', { name: 'Menu and account' }).click();
      await menu.getByRole('button', { name: 'Sign out' }).click();
      await expect(header(page).signedInBadge).toHaveCount(0);
    });
  });
});
