import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { aa4337Wallet } from './support/aa4337-wallet.ts';
import { e2eChain, nftOwnerOf } from './support/chain.ts';
import { expectListed, registerThroughCheckout } from './support/journeys.ts';
import { header, signIn } from './support/pages.ts';
import { recordsPage } from './pages/records.ts';

const run = Date.now().toString(36);

test.describe('a Solady ERC-4337 account (viem toSoladySmartAccount: ERC-7739 through ERC-1271, ERC-6492 undeployed)', () => {
  // Registration and records with every signature checked by the account on the chain.
  test.describe.configure({ timeout: 180_000 });
  const ownerKey = generatePrivateKey();
  // The wallet is the smart account and signs through viem's account object: the viem mode.
  test.use({ walletKeys: [ownerKey], walletMode: 'viem' });

  for (const deploy of [true, false]) {
    const kind = deploy ? 'deployed' : 'not deployed yet (ERC-6492)';
    test(`an account ${kind} signs in, registers and edits records as itself`, async ({ page, wallet }) => {
      const account = await aa4337Wallet(ownerKey, { label: `${run}-${deploy ? 'deployed' : 'counterfactual'}`, deploy });
      await wallet.actAsSmartAccount(account);
      const { clients } = await e2eChain();
      const codeBefore = await clients.public.getCode({ address: account.address });
      expect(Boolean(codeBefore)).toBe(deploy);
      const domain = `aa4337-${deploy ? 'd' : 'cf'}-${run}.com`;

      await page.goto('/');
      await signIn(page, wallet);
      await expect(header(page).account(account.address)).toBeVisible();
      await expect(page.getByRole('banner').getByText(/Acting for/)).toHaveCount(0);

      await registerThroughCheckout(page, domain);
      expect(await nftOwnerOf(domain)).toBe(account.address);
      await expectListed(page, domain);
      const records = recordsPage(page);
      await records.open(domain);
      await records.addAndSign('A', 'web', { 'IPv4 address': deploy ? '192.0.2.95' : '192.0.2.96' });
      await expect(records.row('A', 'web')).toContainText(deploy ? '192.0.2.95' : '192.0.2.96');
      expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length, 'checkout and record signatures').toBeGreaterThanOrEqual(2);
      expect(await clients.public.getCode({ address: account.address }), 'verifying 6492 deploys nothing for real').toEqual(codeBefore);
    });
  }
});
