import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { addressOf, displayAddress, TEST_KEYS } from './support/keys.ts';
import { connectWallet, expectSignedIn, header, signIn, walletModal } from './support/pages.ts';

test.describe('wallet connection and SIWE session', () => {
  // A first account of its own (its API key list is empty whatever other journeys do at the same time), bob second.
  test.use({ walletKeys: [generatePrivateKey(), TEST_KEYS.bob] });
  test('connect, sign in, stay signed in across a reload, sign out', async ({ page, wallet }) => {
    await page.goto('/');
    await expect(header(page).connectButton).toBeVisible();
    expect(wallet.requests, 'the wallet is not asked for accounts before the person connects').not.toContain('eth_requestAccounts');

    await signIn(page, wallet);
    expect(wallet.requests.filter((m) => m === 'personal_sign')).toHaveLength(1);

    await page.reload();
    await expectSignedIn(page, wallet);
    expect(wallet.requests.filter((m) => m === 'personal_sign'), 'a reload needs no new signature').toHaveLength(1);

    await header(page).signOutButton.click();
    await expect(header(page).notSignedInBadge).toBeVisible();
    await expect(header(page).signInButton).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Signed out' })).toBeVisible();

    await page.reload();
    await expect(header(page).signInButton, 'signing out survives a reload').toBeVisible();
  });

  test('declining the sign-in signature is a calm note, and signing again works', async ({ page, wallet }) => {
    await page.goto('/');
    await connectWallet(page, wallet);
    wallet.rejectNext('personal_sign');
    await walletModal(page).getByRole('button', { name: 'Sign message' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Sign-in cancelled' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(header(page).signedInBadge).toHaveCount(0);

    await walletModal(page).getByRole('button', { name: 'Sign message' }).click();
    await expectSignedIn(page, wallet);
  });

  test('a chain the service does not accept is explained, with the switch back offered', async ({ page, wallet }) => {
    await page.goto('/');
    await signIn(page, wallet);

    await wallet.switchChain(1);
    const warning = page.getByRole('alert').filter({ hasText: 'This service does not accept Ethereum' });
    await expect(warning).toBeVisible();
    await warning.getByRole('button', { name: 'Switch to Local chain' }).click();
    await expect(warning).toHaveCount(0);
    expect(wallet.chainId).toBe(31337);
    await expectSignedIn(page, wallet);
  });

  test('switching accounts in the wallet ends the session and offers to sign in as the new account', async ({ page, wallet }) => {
    await page.goto('/domains');
    // The first sign-in's reads of the domain list are held until the second sign-in's dialog is open: RainbowKit
    // closes its dialog when a sign-in finishes, and the first one must not close the second's.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/user\/domains/, async (route) => {
      await released;
      await route.continue();
    });
    await signIn(page, wallet);

    await wallet.switchAccount(1);
    const bob = addressOf(TEST_KEYS.bob);
    await expect(header(page).account(bob)).toBeVisible();
    await expect(header(page).notSignedInBadge).toBeVisible();
    const notice = page.getByRole('alert').filter({ hasText: 'You switched accounts' });
    await expect(notice).toContainText(`Sign in as ${displayAddress(bob)}`);
    await expect(page).toHaveURL(/\/domains$/);

    await notice.getByRole('button', { name: 'Sign in again' }).click();
    await expect(walletModal(page).getByRole('button', { name: 'Sign message' })).toBeVisible();
    const heldRead = page.waitForResponse(/\/user\/domains/);
    release();
    await heldRead;
    await walletModal(page).getByRole('button', { name: 'Sign message' }).click();
    await expectSignedIn(page, wallet);
    await expect(notice).toHaveCount(0);
  });

  test('an expired session asks to sign in again, on the same page', async ({ page, wallet }) => {
    await page.clock.install();
    await page.goto('/settings');
    await signIn(page, wallet);

    // The service's token lives 12 hours; jump past it.
    await page.clock.fastForward('12:00:05');
    const notice = page.getByRole('alert').filter({ hasText: 'Your session expired' });
    await expect(notice).toBeVisible();
    await expect(header(page).signInButton).toBeVisible();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  });

  test('a session the service no longer accepts ends on its first 401, without leaving the page', async ({ page, wallet }) => {
    await page.goto('/settings');
    await signIn(page, wallet);
    await expect(page.getByText('No API keys yet')).toBeVisible();

    // As if the service had forgotten the session (restarted with a new database, or revoked it).
    await page.evaluate(() => {
      const key = 'namefi.dashboard.session';
      const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
      localStorage.setItem(key, JSON.stringify({ ...stored, token: 'forgotten-by-the-service' }));
    });
    await page.reload();

    const notice = page.getByRole('alert').filter({ hasText: 'Your session has ended' });
    await expect(notice).toBeVisible();
    await expect(page).toHaveURL(/\/settings$/);
    await notice.getByRole('button', { name: 'Sign in again' }).click();
    await walletModal(page).getByRole('button', { name: 'Sign message' }).click();
    await expectSignedIn(page, wallet);
    await expect(page.getByText('No API keys yet')).toBeVisible();
  });
});
