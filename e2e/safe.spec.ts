import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { e2eChain, nftOwnerOf } from './support/chain.ts';
import { editRecordsAndPark, expectListed, registerThroughCheckout } from './support/journeys.ts';
import { header, signIn } from './support/pages.ts';
import { safeWallet } from './support/safe-wallet.ts';
import { historyPage } from './pages/history.ts';
import { shortAddress } from '../src/lib/format.ts';

const run = Date.now().toString(36);

test.describe('Safe wallets (Safe 1.4.1 on the local chain, signing as Safe{Wallet} does)', () => {
  // Each journey registers, edits and parks with every signature checked by the Safe on the chain.
  test.describe.configure({ timeout: 180_000 });
  const ownerKeys = [generatePrivateKey(), generatePrivateKey(), generatePrivateKey()];
  // The wallet acts as the Safe and signs SafeMessages with its owners' keys: MetaMask cannot, the viem mode can.
  test.use({ walletKeys: [ownerKeys[0]], walletMode: 'viem' });

  test('a 1-of-1 Safe signs in, registers, edits records and parks as itself', async ({ page, wallet }) => {
    const safe = await safeWallet(ownerKeys.slice(0, 1), { threshold: 1, deploy: true });
    await wallet.actAsSmartAccount(safe);
    const domain = `safe1-${run}.com`;

    await page.goto('/');
    await signIn(page, wallet);
    await expect(header(page).account(safe.address)).toBeVisible();
    await expect(page.getByRole('banner').getByText(/Acting for/)).toHaveCount(0);

    await registerThroughCheckout(page, domain);
    expect(await nftOwnerOf(domain)).toBe(safe.address);
    await expectListed(page, domain);
    await editRecordsAndPark(page, domain, '192.0.2.81');
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length, 'checkout, record and two parking signatures').toBeGreaterThanOrEqual(4);

    // The history keeps the Safe's signatures: each verifies in the browser through the chain (ERC-1271).
    const history = historyPage(page);
    await history.open();
    await expect(history.entries()).toHaveCount(3);
    const parked = await history.entry(Number((await history.entries().first().getAttribute('aria-label'))!.match(/^Serial (\d+)/)![1]));
    await parked.getByRole('button', { name: /^Verify the signature/ }).click();
    await expect(parked.getByRole('status')).toHaveText(`signed by ${shortAddress(safe.address.toLowerCase())} ✓ accepted by a contract account (ERC-1271)`);
  });

  test('a 2-of-3 Safe signs in, registers, edits records and parks with two owners’ signatures each time', async ({ page, wallet }) => {
    // Owners 1 and 3 sign (owner 2 is away): every signature is 130 bytes, two SafeMessage signatures in owner order.
    const safe = await safeWallet(ownerKeys, { threshold: 2, deploy: true, signers: [0, 2] });
    await wallet.actAsSmartAccount(safe);
    const domain = `safe23-${run}.com`;

    await page.goto('/');
    await signIn(page, wallet);
    await expect(header(page).account(safe.address)).toBeVisible();

    await registerThroughCheckout(page, domain);
    expect(await nftOwnerOf(domain)).toBe(safe.address);
    await expectListed(page, domain);
    await editRecordsAndPark(page, domain, '192.0.2.82');
  });

  test('a 2-of-3 Safe not deployed yet signs in and registers through ERC-6492, and stays undeployed', async ({ page, wallet }) => {
    const safe = await safeWallet(ownerKeys, { threshold: 2, deploy: false });
    await wallet.actAsSmartAccount(safe);
    const { clients } = await e2eChain();
    expect(await clients.public.getCode({ address: safe.address })).toBeUndefined();

    await page.goto('/');
    await signIn(page, wallet);
    await expect(header(page).account(safe.address)).toBeVisible();

    const domain = `safe-cf-${run}.com`;
    await registerThroughCheckout(page, domain);
    expect(await nftOwnerOf(domain)).toBe(safe.address);
    await expectListed(page, domain);
    expect(await clients.public.getCode({ address: safe.address }), 'verifying 6492 deploys nothing for real').toBeUndefined();
  });
});
