import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { addressOf, TEST_KEYS } from './support/keys.ts';
import { resumeSession } from './support/pages.ts';
import { call, faucet, ownDomain, siweSignIn } from './support/service-client.ts';
import { domainsPage } from './pages/domains.ts';

const stamp = Date.now().toString(36);
const mine = `renew-two-${stamp}.com`;
const capped = `renew-cap-${stamp}.com`;
const gift = `renew-gift-${stamp}.org`;
const bulk = [`renew-bulk-a-${stamp}.com`, `renew-bulk-b-${stamp}.net`];

/** The expiry moved by whole calendar years, in the dialog's words ("26 November 2029"). */
function inWords(iso: string, addYears = 0): string {
  const date = new Date(iso);
  date.setUTCFullYear(date.getUTCFullYear() + addYears);
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}
const expiryOf = async (name: string) => (await call('getRenewalQuote', { query: { normalizedDomainName: name } })).expiresAt;

async function openDomain(page: Page, name: string) {
  await page.goto(`/domains/${name}`);
  await expect(page.getByText(/^Expires on /)).toBeVisible({ timeout: 60_000 });
}

test.describe('Renew a domain', () => {
  test.describe.configure({ timeout: 300_000 });

  test.beforeAll(async () => {
    for (const name of [mine, capped, gift, ...bulk]) await ownDomain(TEST_KEYS.alice, name);
    // Bob pays for the gift from his own credit.
    await faucet(await siweSignIn(TEST_KEYS.bob));
  });

  test('for 2 years: the price and the new date said before the wallet opens, then the new date on the page', async ({ page, wallet }) => {
    const expiry = await expiryOf(mine);
    await resumeSession(page, wallet);
    await openDomain(page, mine);
    await expect(page.getByText(`Expires on ${inWords(expiry)}`)).toBeVisible();
    await page.getByRole('button', { name: 'Renew', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Renew ${mine}` });
    await dialog.getByLabel('Years to add').fill('2');
    const signatures = () => wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length;
    const before = signatures();
    await expect(dialog.getByRole('status')).toContainText(`${mine} will expire on ${inWords(expiry, 2)} instead of ${inWords(expiry)}, for $25.00 (2 years at $12.50 a year).`);
    await expect(dialog.getByRole('note')).toContainText(`Renew ${mine} for 2 years, paid from your credit (RenewDomain)`);
    expect(signatures()).toBe(before);
    await dialog.getByRole('button', { name: 'Sign and renew' }).click();
    await expect(dialog).toBeHidden({ timeout: 60_000 });
    expect(signatures()).toBe(before + 1);
    // The order completes; the page re-reads the expiry.
    await expect(page.getByText(`Expires on ${inWords(expiry, 2)}`)).toBeVisible({ timeout: 60_000 });
    expect(await expiryOf(mine)).toBe(new Date(new Date(expiry).setUTCFullYear(new Date(expiry).getUTCFullYear() + 2)).toISOString());
  });

  test('on a phone: past 10 years is refused at the field, with the latest date it may reach, and the dialog fits the screen', async ({ page, wallet }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await resumeSession(page, wallet);
    await openDomain(page, capped);
    await page.getByRole('button', { name: 'Renew', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Renew ${capped}` });
    const field = dialog.getByLabel('Years to add');
    const latest = (await call('getRenewalQuote', { query: { normalizedDomainName: capped } })).latestExpiresAt;
    await field.fill('10');
    await expect(dialog.getByText(`At most 9 years: a domain may be renewed until ${inWords(latest)} at most (10 years from today)`)).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByRole('button', { name: 'Sign and renew' })).toBeDisabled();
    await expect(dialog.getByRole('note')).toHaveCount(0);
    await field.fill('11');
    await expect(dialog.getByText(/^At most 9 years/)).toBeVisible();
    await field.fill('9');
    await expect(field).not.toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByRole('button', { name: 'Sign and renew' })).toBeEnabled();
    // Within reach and nothing off the screen sideways.
    await expect(dialog.getByRole('button', { name: 'Sign and renew' })).toBeInViewport();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scrolling at phone width').toBeLessThanOrEqual(0);
  });

  test('a gift: a second wallet renews a name it does not hold, for its owner', async ({ page, wallet }) => {
    const expiry = await expiryOf(gift);
    await wallet.switchAccount(1);
    await resumeSession(page, wallet);
    await openDomain(page, gift);
    await page.getByRole('button', { name: 'Renew for the owner' }).click();
    const dialog = page.getByRole('dialog', { name: `Renew ${gift} for the owner` });
    await expect(dialog).toContainText(`You pay from your credit; ${gift} stays with its owner`);
    await dialog.getByLabel('Years to add').fill('1');
    await expect(dialog.getByRole('status')).toContainText(`${gift} will expire on ${inWords(expiry, 1)}`);
    await dialog.getByRole('button', { name: 'Sign and renew' }).click();
    await expect(dialog).toBeHidden({ timeout: 60_000 });
    await expect(page.getByText(`Expires on ${inWords(expiry, 1)}`)).toBeVisible({ timeout: 60_000 });
    // Still alice's.
    expect((await call('getRenewalQuote', { query: { normalizedDomainName: gift } })).ownerAddress).toBe(addressOf(TEST_KEYS.alice).toLowerCase());
  });

  test('many at once from the Domains list: each new date and the total said, one signature each', async ({ page, wallet }) => {
    const expiries = await Promise.all(bulk.map(expiryOf));
    await resumeSession(page, wallet);
    const list = domainsPage(page);
    await page.goto('/domains');
    await expect(list.table).toBeVisible({ timeout: 60_000 });
    for (const name of bulk) await page.getByRole('checkbox', { name: `Select ${name}` }).click();
    await page.getByRole('button', { name: 'Renew 2 selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Renew 2 domains' });
    await dialog.getByLabel('Years to add').fill('3');
    await expect(dialog.getByRole('status')).toContainText(`${bulk[0]}: until ${inWords(expiries[0], 3)}, $37.50`);
    await expect(dialog.getByRole('status')).toContainText(`${bulk[1]}: until ${inWords(expiries[1], 3)}, $42.00`);
    await expect(dialog.getByRole('status')).toContainText('Total: $79.50 for 2 domains, one signature each.');
    const before = wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length;
    await dialog.getByRole('button', { name: 'Sign and renew 2 domains' }).click();
    await expect(dialog).toBeHidden({ timeout: 60_000 });
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length).toBe(before + 2);
    await expect(list.table.getByRole('row', { name: new RegExp(bulk[0]) })).toContainText(new Date(new Date(expiries[0]).setUTCFullYear(new Date(expiries[0]).getUTCFullYear() + 3)).toISOString().slice(0, 10), { timeout: 60_000 });
  });
});
