import { expect, type Page } from '@playwright/test';
import { displayAddress } from './keys.ts';
import { TEST_WALLET_CONNECTOR_ID, TEST_WALLET_NAME, type TestWallet } from './test-wallet.ts';
import { API_URL } from './env.ts';
import { siweSession } from './service-client.ts';

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

/**
 * A returning visitor: the wallet approved this site on an earlier visit and the tab holds the SIWE session it
 * signed then. The session is a real one (the wallet's key signs the service's SIWE message, in Node), stored as
 * the dashboard stores its own; wagmi reconnects the wallet as after a reload. Sign-in itself is the subject of
 * e2e/auth.spec.ts and network.spec.ts, which go through RainbowKit's modal; every other journey starts here.
 */
export async function resumeSession(page: Page, wallet: TestWallet, path = '/'): Promise<void> {
  if (wallet.mode !== 'metamask' || wallet.address !== wallet.signerAddress) throw new Error('resumeSession: a plain EOA only; smart accounts sign in through the modal');
  const verified = await siweSession(wallet.key);
  const session = { address: wallet.address, chainId: verified.chainId, token: verified.token, expiresAt: verified.expiresAt, apiBaseUrl: API_URL };
  wallet.rememberConnection();
  // Seeded once per tab (sessionStorage survives reloads): a journey that signs out and reloads stays signed out.
  await page.addInitScript(
    ([stored, connector]) => {
      if (sessionStorage.getItem('e2e.session-seeded')) return;
      sessionStorage.setItem('e2e.session-seeded', '1');
      localStorage.setItem('namefi.dashboard.session', stored);
      localStorage.setItem('namefi.wagmi.recentConnectorId', JSON.stringify(connector));
    },
    [JSON.stringify(session), TEST_WALLET_CONNECTOR_ID] as const,
  );
  await page.goto(path);
  // The wallet island (wagmi, RainbowKit) loads and reconnects before the header says so: on two busy cores that
  // can take longer than an expectation's usual 10 s.
  await expect(header(page).signedInBadge).toBeVisible({ timeout: 30_000 });
  await expect(header(page).account(wallet.address)).toBeVisible();
}
