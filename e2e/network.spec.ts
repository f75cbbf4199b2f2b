import { test, expect } from './support/fixtures.ts';
import { CHAIN_RPC_URL, DASHBOARD_URL } from './support/env.ts';
import { connectWallet, expectSignedIn, header, walletModal } from './support/pages.ts';

/** Issue 15: a wallet on the wrong network, or a page on another host, is fixed before any signature. */
test.describe('sign-in meets the wrong network and the wrong host', () => {
  test.use({ walletChainId: 1 });

  test('a wallet on Ethereum that lacks the local chain is asked to add it, then signs in; nothing is signed before', async ({ page, wallet }) => {
    wallet.knownChains.delete(31337);
    await page.goto('/');
    await header(page).connectButton.click();
    await walletModal(page).getByRole('button', { name: 'Test Wallet' }).click();

    await expect.poll(() => wallet.chainId).toBe(31337);
    expect(wallet.addedChains.map((c) => [Number(c.chainId), c.rpcUrls])).toEqual([[31337, [CHAIN_RPC_URL]]]);
    const sign = walletModal(page).getByRole('button', { name: 'Sign message' });
    await expect(sign).toBeVisible();
    await expect(page.getByRole('note', { name: 'About the sign-in signature' })).toContainText('free and sends no transaction');
    await sign.click();
    await expectSignedIn(page, wallet);
    const asked = wallet.requests.filter((m) => ['wallet_switchEthereumChain', 'wallet_addEthereumChain', 'personal_sign'].includes(m));
    expect(asked, 'switch, add, then the only signature').toEqual(['wallet_switchEthereumChain', 'wallet_addEthereumChain', 'personal_sign']);
  });

  test('a refused switch leaves the switch button in view, no dialog over it, and it works when pressed', async ({ page, wallet }) => {
    wallet.rejectNext('wallet_switchEthereumChain');
    await page.goto('/');
    await connectWallet(page, wallet);

    const warning = page.getByRole('alert').filter({ hasText: 'This service does not accept Ethereum' });
    await expect(warning).toContainText('Your wallet did not switch.');
    await expect(walletModal(page)).toHaveCount(0);
    expect(wallet.requests).not.toContain('personal_sign');

    await warning.getByRole('button', { name: 'Switch to Local chain' }).click();
    await expect(warning).toHaveCount(0);
    await walletModal(page).getByRole('button', { name: 'Sign message' }).click();
    await expectSignedIn(page, wallet);
    expect(wallet.requests.filter((m) => m === 'personal_sign')).toHaveLength(1);
  });
});

test.describe('sign-in words', () => {
  test('a declined sign-in is said once, and the dialog offers to sign again', async ({ page, wallet }) => {
    await page.goto('/');
    await connectWallet(page, wallet);
    wallet.rejectNext('personal_sign');
    await walletModal(page).getByRole('button', { name: 'Sign message' }).click();
    const cancelled = page.getByRole('status').filter({ hasText: 'Sign-in cancelled' });
    await expect(cancelled).toHaveCount(1);
    await expect(page.getByText(/declined/i)).toHaveCount(1);
    await walletModal(page).getByRole('button', { name: 'Sign message' }).click();
    await expectSignedIn(page, wallet);
  });

  test('the dashboard opened on another host than the service signs in for names the address that works, before signing', async ({ page, wallet }) => {
    // The service signs in for 127.0.0.1:<port>; the same dashboard opened as localhost:<port> cannot.
    const dashboard = new URL(DASHBOARD_URL);
    await page.goto(`http://localhost:${dashboard.port}/domains`);
    await connectWallet(page, wallet);
    await walletModal(page).getByRole('button', { name: 'Sign message' }).click();
    const notice = page.getByRole('alert').filter({ hasText: `Sign in at ${dashboard.host}` });
    await expect(notice).toBeVisible();
    await expect(walletModal(page)).toHaveCount(0);
    await expect(notice.getByRole('link')).toHaveAttribute('href', `${DASHBOARD_URL}/domains`);
    expect(wallet.requests, 'nothing signed for the wrong host').not.toContain('personal_sign');

    await notice.getByRole('link').click();
    await expect(page).toHaveURL(`${DASHBOARD_URL}/domains`);
  });
});
