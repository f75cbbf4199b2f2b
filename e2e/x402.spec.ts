import { getAddress } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { header, resumeSession } from './support/pages.ts';
import { checkoutPage } from './pages/checkout.ts';
import { orderPage } from './pages/orders.ts';
import { call } from './support/service-client.ts';
import { nftOwnerOf } from './support/chain.ts';

const run = Date.now().toString(36);

function x402Panel(page: import('@playwright/test').Page) {
  const panel = page.getByRole('group', { name: 'Pay with USDC (x402)' });
  return {
    panel,
    choose: page.getByRole('radio', { name: /Pay with USDC \(x402\)/ }),
    amount: panel.getByLabel('Amount in USDC', { exact: true }),
    balance: panel.getByLabel('Your USDC balance', { exact: true }),
    notice: panel.getByRole('note').filter({ hasText: 'Your wallet will ask you to sign' }),
    pay: panel.getByRole('button', { name: /^Sign and pay / }),
  };
}

test.describe('x402 checkout', () => {
  test.use({ walletKeys: [generatePrivateKey()] });

  test('a funded wallet pays in USDC with one signature (after declining one), the order finishes and the domain is the wallet’s', async ({ page, wallet }) => {
    const domain = `usdc-${run}.com`;
    await resumeSession(page, wallet);
    const checkout = checkoutPage(page);
    await checkout.open(domain);
    await checkout.addTestCredit();
    await expect(checkout.balance).toHaveText('$100.00');
    const total = ((await checkout.total.textContent()) ?? '').replace(/[$,]/g, '');

    const x402 = x402Panel(page);
    await x402.choose.check();
    await expect(x402.amount).toHaveText(`${total} USDC`);
    await expect(x402.balance).toHaveText('100.00 USDC');
    // Credit's own Pay and notice give way to the x402 ones.
    await expect(checkout.pay).toHaveCount(0);
    const payTo = await call('registerDomainX402', { params: { normalizedDomainName: domain } }).catch((error: { data?: { paymentRequired?: { accepts: { payTo: string }[] } } }) => error.data?.paymentRequired?.accepts[0].payTo);
    expect(payTo).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await expect(x402.notice).toContainText(
      new RegExp(`A transfer of ${total.replace('.', '\\.')} USDC from ${getAddress(wallet.address)} to the service ${payTo}, valid until \\d{2}:\\d{2}:\\d{2} \\(5 minutes after you sign\\)`),
    );
    expect(wallet.requests).not.toContain('eth_signTypedData_v4');

    // Declined in the wallet: nothing is paid, the name stays available, and paying again works.
    wallet.rejectNext('eth_signTypedData_v4');
    await x402.pay.click();
    await expect(x402.panel.getByRole('status').filter({ hasText: 'Signature declined' })).toContainText(`Nothing was paid and ${domain} is still available`);
    expect((await call('checkAvailability', { query: { domain } })).availability).toBe(true);
    await expect(x402.balance).toHaveText('100.00 USDC');

    await x402.pay.click();
    await expect(page).toHaveURL(/\/orders\/[^/]+$/);
    // One signature per attempt: the declined one and the one that paid.
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(2);
    await orderPage(page).expectStatus('Succeeded', 20_000);
    expect(getAddress(await nftOwnerOf(domain))).toBe(getAddress(wallet.address));
    await expect(page.getByRole('banner').getByText('$100.00')).toBeVisible();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
    await expect(page.getByRole('main')).toContainText(domain);
  });

});

test.describe('x402 checkout, unfunded', () => {
  test.use({ walletKeys: [generatePrivateKey()] });

  test('signed out, an unfunded wallet is told why before anything is signed and the name stays available', async ({ page, wallet }) => {
    const domain = `broke-${run}.com`;
    // Connected, not signed in (signed out again): x402 needs only the wallet's signature.
    await resumeSession(page, wallet);
    await header(page).signOutButton.click();
    await expect(header(page).notSignedInBadge).toBeVisible();
    await page.goto(`/checkout/${domain}`);
    await expect(page.getByRole('button', { name: 'Connect and sign in' })).toBeVisible();
    const x402 = x402Panel(page);

    await expect(x402.balance).toHaveText('0.00 USDC');
    const amount = (await x402.amount.textContent()) ?? '';
    expect(amount).toMatch(/^\d+\.\d{2} USDC$/);
    await expect(x402.panel.getByRole('alert').filter({ hasText: `Your wallet needs ${amount} more` })).toContainText(`It holds 0.00 USDC and this name costs ${amount}`);
    await expect(x402.pay).toBeDisabled();
    expect(wallet.requests).not.toContain('eth_signTypedData_v4');
    const availability = await call('checkAvailability', { query: { domain } });
    expect(availability.availability).toBe(true);
  });
});
