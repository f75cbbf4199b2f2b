import { test } from './support/fixtures.ts';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { header, resumeSession, walletModal } from './support/pages.ts';
import { expect } from '@playwright/test';

const pages = ['/', '/search?q=example', '/domains', '/domains/example.com', '/orders', '/orders/00000000-0000-4000-8000-000000000000', '/checkout/example.com', '/settings', '/no-such-page'];

test.describe('accessibility (axe: no serious or critical violation)', () => {
  test('every page, signed out, light theme', async ({ page }) => {
    test.setTimeout(180_000);
    for (const path of pages) {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await expect(page.getByRole('status', { name: 'Loading page' })).toHaveCount(0);
      // The pre-rendered home page is on screen before React takes it over: scan the page a person can use.
      await expect(header(page).connectButton).toBeEnabled();
      await expectNoSeriousA11yViolations(page);
    }
  });

  test('every page, signed in, dark theme', async ({ page, wallet }) => {
    test.setTimeout(180_000);
    await resumeSession(page, wallet);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    for (const path of pages) {
      await page.goto(path);
      await expect(header(page).signedInBadge).toBeVisible();
      await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
      await expect(page.getByRole('status', { name: 'Loading page' })).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);
    }
  });

  test('the page behind the open wallet modal', async ({ page }) => {
    await page.goto('/');
    await header(page).connectButton.click();
    await expect(walletModal(page)).toBeVisible();
    // RainbowKit's own modal is third-party UI with known findings (wallet icons without alt text);
    // the scan covers everything of ours around it.
    await expectNoSeriousA11yViolations(page, { exclude: ['[data-rk]'] });
  });

  test('phone width: the menu opens with one tap before any script has run, and every link is reachable', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    // The home page is pre-rendered; its scripts are held back until the menu has been used, so the one tap below
    // lands before React has taken the page over, as it does on a slow phone.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await page.getByRole('button', { name: 'Menu and account' }).click();
    for (const name of ['Search', 'Domains', 'Orders', 'Settings']) await expect(nav.getByRole('link', { name })).toBeVisible();
    const hydrated = () => Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer'));
    expect(await page.evaluate(hydrated), 'React has not taken the page over yet').toBe(false);
    release();
    await nav.getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scrolling at phone width').toBeLessThanOrEqual(0);
  });
});
