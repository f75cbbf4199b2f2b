import { expect, type Page } from '@playwright/test';
import { checkoutPage } from '../pages/checkout.ts';
import { domainsPage } from '../pages/domains.ts';
import { orderPage } from '../pages/orders.ts';
import { parkingPanel } from '../pages/parking.ts';
import { recordsPage } from '../pages/records.ts';

/**
 * The everyday steps the smart-account journeys share, done through the dashboard as a person would:
 * every write is signed by the test wallet and checked by the real service.
 */

/** Settings → Delegated smart account: the wallet acts for `account` (ERC-1271). */
export async function useDelegatedAccount(page: Page, account: string): Promise<void> {
  await page.goto('/settings');
  await page.getByRole('textbox', { name: 'Smart account address' }).fill(account);
  await page.getByRole('combobox', { name: 'Account kind' }).selectOption({ label: 'ERC-1271 contract account' });
  await page.getByRole('button', { name: 'Save smart account' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Delegated account saved' })).toBeVisible();
}

/** Faucet and checkout on the registration page, then the order page until the order succeeds. */
export async function registerThroughCheckout(page: Page, domain: string, expectSigningNote?: string): Promise<void> {
  const checkout = checkoutPage(page);
  await checkout.open(domain);
  await checkout.addTestCredit();
  await expect(checkout.balance).toHaveText('$100.00');
  await expect(checkout.pay).toBeEnabled();
  await expect(checkout.signingNotice).toContainText(`Register ${domain}`);
  if (expectSigningNote) await expect(checkout.signingNotice).toContainText(expectSigningNote);
  await checkout.pay.click();
  await expect(page).toHaveURL(/\/orders\/[^/]+$/);
  await orderPage(page).expectStatus('Succeeded', 20_000);
}

/** The domain is in "My domains". */
export async function expectListed(page: Page, domain: string): Promise<void> {
  const list = domainsPage(page);
  await list.open();
  await expect(list.link(domain)).toBeVisible();
}

/** Adds an A record with one signature, then unparks and parks the new (parked) domain again. */
export async function editRecordsAndPark(page: Page, domain: string, ipv4: string): Promise<void> {
  const records = recordsPage(page);
  await records.open(domain);
  await records.addAndSign('A', 'web', { 'IPv4 address': ipv4 });
  await expect(records.row('A', 'web')).toContainText(ipv4);

  // Parking lives in its own tab (Forwarding and parking); the records in theirs.
  const parking = parkingPanel(page);
  await parking.open();
  await expect(parking.state).toHaveText(/^Parked/);
  await parking.toggle.click();
  await parking.confirmUnpark.click();
  await expect(parking.state).toHaveText(/Not parked/);
  await records.show();
  await expect(records.rowWith('34.123.0.161')).toHaveCount(0);
  await parking.open();
  await parking.toggle.click();
  await parking.confirmPark.click();
  await expect(parking.state).toHaveText(/^Parked/);
  await records.show();
  await expect(records.rowWith('34.123.0.161')).toBeVisible();
  await expect(records.row('A', 'web')).toContainText(ipv4);
}
