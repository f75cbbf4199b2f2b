import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { header, resumeSession } from './support/pages.ts';
import { recordsPage } from './pages/records.ts';
import { checkoutPage } from './pages/checkout.ts';
import { orderPage } from './pages/orders.ts';
import { watchTypesRequests } from './support/types-requests.ts';

const run = Date.now().toString(36);

test.describe('checkout', () => {
  test.use({ walletKeys: [generatePrivateKey()] });

  test('too little balance is explained, the faucet tops up, and a two-year registration with records succeeds', async ({ page, wallet }) => {
    const domain = `shop-${run}.com`;
    const types = watchTypesRequests(page);
    await resumeSession(page, wallet);
    const checkout = checkoutPage(page);
    await checkout.open(domain, 2);
    await expect(checkout.years).toHaveValue('2');

    await expect(checkout.balance).toHaveText('$0.00');
    await expect(checkout.missing).toBeVisible();
    const total = (await checkout.total.textContent()) ?? '';
    await expect(checkout.missing).toContainText(`You need ${total} more credit`);
    await expect(checkout.pay).toBeDisabled();

    await checkout.years.fill('11');
    await checkout.years.blur();
    await expect(page.getByText('At most 10 years for this name')).toBeVisible();
    await checkout.years.fill('2');
    await expect(page).toHaveURL(/years=2$/);

    await checkout.addTestCredit();
    await expect(checkout.balance).toHaveText('$100.00');
    await expect(header(page).signedInBadge).toBeVisible();
    await expect(page.getByRole('banner').getByText('$100.00')).toBeVisible();
    await expect(checkout.missing).toHaveCount(0);

    // A blank record, then one from a template; a bad value is caught on its field before signing.
    await checkout.addBlankRecord('A', '@', '300.1.1.1');
    await page.getByRole('combobox', { name: 'Start from a template' }).selectOption({ label: 'DMARC (mail policy and reports)' });
    await page.getByRole('textbox', { name: 'E-mail address for reports' }).fill(`reports@${domain}`);
    await page.getByRole('button', { name: 'Add DMARC (mail policy and reports) records' }).click();
    await expect(checkout.recordField(2, 'Name')).toHaveValue('_dmarc');
    await checkout.pay.click();
    await expect(checkout.recordField(1, 'Content')).toHaveAccessibleDescription(/IPv4/);
    expect(wallet.requests).not.toContain('eth_signTypedData_v4');

    await checkout.recordField(1, 'Content').fill('192.0.2.44');
    await expect(checkout.signingNotice).toContainText(`Register ${domain} for 2 years, paying ${total} from your credit`);
    await expect(checkout.signingNotice).toContainText('Create 2 DNS records once it is registered');
    await expect(checkout.signingNotice).toContainText('Signed for Namefi Local, version 1');
    await checkout.pay.click();

    await expect(page).toHaveURL(/\/orders\/[^/]+$/);
    expect(wallet.requests).toContain('eth_signTypedData_v4');
    // Checkout asked both registration operations' types once, as it opened; the refused Pay asked nothing more.
    expect(types.counts()).toEqual({ registerDomain: 1, registerWithRecords: 1 });
    const order = orderPage(page);
    await order.expectStatus('Succeeded');
    await expect(page.getByRole('row').filter({ hasText: domain })).toContainText(`${domain}2${total}Succeeded`);
    await expect(page.getByText(`${total} from credit`)).toBeVisible();
    await expect(page.getByRole('banner').getByText(`$${(100 - Number(total.replace(/[$,]/g, ''))).toFixed(2)}`)).toBeVisible();

    await order.manageRecords(domain).click();
    await expect(page).toHaveURL(new RegExp(`/domains/${domain.replace('.', '\\.')}$`));
    const records = recordsPage(page);
    await expect(records.rowWith('192.0.2.44')).toBeVisible();
    await expect(records.rowWith('v=DMARC1')).toBeVisible();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
    await expect(page.getByRole('main')).toContainText(domain);
  });

  test('a fail- name ends FAILED with its reason and what to do next', async ({ page, wallet }) => {
    const domain = `fail-${run}.com`;
    await resumeSession(page, wallet);
    const checkout = checkoutPage(page);
    await checkout.open(domain);
    await expect(checkout.balance).toHaveText(/^\$/);
    if (await checkout.missing.isVisible()) await checkout.addTestCredit();
    await expect(checkout.missing).toHaveCount(0);
    await checkout.pay.click();

    const order = orderPage(page);
    await order.expectStatus('Failed');
    const alert = page.getByRole('alert').filter({ hasText: 'The order did not go through' });
    await expect(alert).toContainText(domain);
    await expect(alert).toContainText('refunded');
    await expect(page.getByRole('link', { name: 'Search again' })).toBeVisible();
    await expect(order.timeline).toContainText('Failed');
  });

  test('declining the signature keeps the checkout as it was', async ({ page, wallet }) => {
    const domain = `keep-${run}.com`;
    await resumeSession(page, wallet);
    const checkout = checkoutPage(page);
    await checkout.open(domain, 3);
    await expect(checkout.balance).toHaveText(/^\$/);
    if (await checkout.missing.isVisible()) await checkout.addTestCredit();
    await expect(checkout.missing).toHaveCount(0);
    wallet.rejectNext('eth_signTypedData_v4');
    await checkout.pay.click();
    await expect(page.getByRole('status').filter({ hasText: 'Signature declined' })).toBeVisible();
    await expect(checkout.years).toHaveValue('3');
    await expect(page).toHaveURL(new RegExp(`/checkout/${domain.replace('.', '\\.')}\\?years=3$`));
  });
});
