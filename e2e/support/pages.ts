import { expect, type Page } from '@playwright/test';
import { displayAddress } from './keys.ts';
import { TEST_WALLET_NAME, type TestWallet } from './test-wallet.ts';

/** Page objects for the app shell: the header's wallet and session controls. */
export function header(page: Page) {
  const banner = page.getByRole('banner');
  return {
    connectButton: banner.getByRole('button', { name: 'Connect wallet' }),
    signInButton: banner.getByRole('button', { name: 'Sign in', exact: true }),
    signOutButton: banner.getByRole('button', { name: 'Sign out' }),
    signedInBadge: banner.getByText('Signed in', { exact: true }),
    notSignedInBadge: banner.getByText('Not signed in', { exact: true }),
    account: (address: string) => banner.getByRole('button', { name: new RegExp(`Wallet ${displayAddress(address)}`) }),
  };
}

/** RainbowKit's modal (a dialog). */
export function walletModal(page: Page) {
  return page.getByRole('dialog');
}

export async function connectWallet(page: Page, wallet: TestWallet): Promise<void> {
  await header(page).connectButton.click();
  await walletModal(page).getByRole('button', { name: TEST_WALLET_NAME }).click();
  await expect(header(page).account(wallet.address)).toBeVisible();
}

/** Opens RainbowKit's sign-in step (after connecting) and signs the SIWE message with the test wallet. */
export async function signIn(page: Page, wallet: TestWallet): Promise<void> {
  const h = header(page);
  await expect(h.connectButton.or(h.signInButton)).toBeVisible();
  // RainbowKit moves on to the sign-in step right after connecting; otherwise the header's button opens it.
  if (await h.connectButton.isVisible()) await connectWallet(page, wallet);
  else await h.signInButton.click();
  await walletModal(page).getByRole('button', { name: 'Sign message' }).click();
  await expect(h.signedInBadge).toBeVisible();
  await expect(h.account(wallet.address)).toBeVisible();
}

export async function expectSignedIn(page: Page, wallet: TestWallet): Promise<void> {
  await expect(header(page).signedInBadge).toBeVisible();
  await expect(header(page).account(wallet.address)).toBeVisible();
}
