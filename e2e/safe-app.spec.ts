import type { Page } from '@playwright/test';
import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { nftOwnerOf } from './support/chain.ts';
import { header, walletModal } from './support/pages.ts';
import { hostAsSafeApp } from './support/safe-app-host.ts';
import { safeWallet } from './support/safe-wallet.ts';
import { checkoutPage } from './pages/checkout.ts';
import { orderPage } from './pages/orders.ts';
import { recordsPage } from './pages/records.ts';

const run = Date.now().toString(36);

test.describe('the dashboard as a Safe App', () => {
  test.describe.configure({ timeout: 180_000 });

  test('inside a Safe{Wallet}-like host it connects to the 2-of-3 Safe without a prompt, signs in, registers and edits records through the Safe', async ({ page }) => {
    const ownerKeys = [generatePrivateKey(), generatePrivateKey(), generatePrivateKey()];
    const safe = await safeWallet(ownerKeys, { threshold: 2, deploy: true });
    const host = await hostAsSafeApp(page, {
      address: safe.address,
      owners: safe.config.owners,
      threshold: 2,
      signerKeys: [ownerKeys[1], ownerKeys[2]],
    });
    try {
      // The page objects only locate by role and label, which a frame does just as a page.
      const app = page.frameLocator('iframe[title="Safe App"]') as unknown as Page;
      const domain = `safe-app-${run}.com`;

      await host.open('/');
      // Connected to the Safe at start-up: nobody clicked Connect, and no wallet list was shown.
      await expect(header(app).account(safe.address)).toBeVisible();
      await expect(header(app).connectButton).toHaveCount(0);

      await header(app).signInButton.click();
      await walletModal(app).getByRole('button', { name: 'Sign message' }).click();
      await expect(header(app).signedInBadge).toBeVisible();
      expect(host.calls).toContain('signMessage');

      await host.open(`/checkout/${domain}`);
      const checkout = checkoutPage(app);
      await expect(header(app).signedInBadge).toBeVisible();
      await checkout.faucet.click();
      await expect(checkout.balance).toHaveText('$100.00');
      await checkout.pay.click();
      await orderPage(app).expectStatus('Succeeded', 20_000);
      expect(await nftOwnerOf(domain)).toBe(safe.address);

      await host.open(`/domains/${domain}`);
      const records = recordsPage(app);
      await expect(app.getByRole('heading', { name: 'DNS records' })).toBeVisible();
      await records.addAndSign('A', 'web', { 'IPv4 address': '192.0.2.91' });
      await expect(records.row('A', 'web')).toContainText('192.0.2.91');

      // Every write went through the host's signTypedMessage, signed by two of the three owners.
      expect(host.calls.filter((c) => c === 'signTypedMessage').length).toBeGreaterThanOrEqual(2);
    } finally {
      await host.close();
    }
  });
});
