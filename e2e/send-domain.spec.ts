import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { fundWallet, nftOwnerOf } from './support/chain.ts';
import { API_URL } from './support/env.ts';
import { displayAddress } from './support/keys.ts';
import { header, resumeSession, signIn } from './support/pages.ts';
import { ownDomain } from './support/service-client.ts';
import { domainsPage } from './pages/domains.ts';
import { historyPage } from './pages/history.ts';
import { recordsPage } from './pages/records.ts';
import type { Page } from '@playwright/test';

/**
 * Sending a domain to another wallet from the dashboard: the owner's own wallet sends the ERC-721 token
 * (safeTransferFrom through wagmi), the service follows the chain. Keys of their own (not alice, anvil's account 0,
 * which the service sends from: two senders of one account race for a nonce).
 */
const ZERO = '0x0000000000000000000000000000000000000000';

/** The address with the case of one letter flipped: a typo its EIP-55 checksum catches. */
function breakChecksum(address: string): string {
  const i = [...address].findIndex((c, k) => k > 1 && /[a-fA-F]/.test(c));
  const c = address[i];
  return address.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + address.slice(i + 1);
}

function sendTab(page: Page) {
  const section = page.getByRole('region', { name: 'Send to another wallet' });
  const dialog = page.getByRole('dialog');
  return {
    section,
    dialog,
    field: dialog.getByRole('textbox', { name: 'Receiving wallet address' }),
    sendButton: dialog.getByRole('button', { name: 'Send with your wallet' }),
    /** From the domains list, in the app (no reload), to the domain's Send tab and its dialog. */
    async open(domain: string) {
      const menu = page.getByRole('button', { name: 'Menu and account' });
      // On a phone the main links live in the menu.
      if (await menu.isVisible()) {
        await menu.click();
        await page.locator('#phone-menu').getByRole('link', { name: 'Domains' }).click();
      } else await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
      await page.getByRole('link', { name: domain, exact: true }).click();
      await page.getByRole('tab', { name: 'Send' }).click();
      await expect(section).toBeVisible();
      await section.getByRole('button', { name: 'Send to another wallet' }).click();
      await expect(dialog).toBeVisible();
    },
  };
}

test.describe('sending a domain to another wallet', () => {
  test.describe.configure({ timeout: 180_000 });
  const ownerKey = generatePrivateKey();
  const receiverKey = generatePrivateKey();
  const owner = privateKeyToAccount(ownerKey).address;
  const receiver = privateKeyToAccount(receiverKey).address;
  test.use({ walletKeys: [ownerKey, receiverKey] });

  test(`refuses the zero address and the owner's own at the field, survives a declined transfer and the service going down, then the receiver edits and the sender is refused`, async ({ page, wallet }) => {
    const domain = `send-${Date.now().toString(36)}.com`;
    await ownDomain(ownerKey, domain);
    await fundWallet(owner);
    await resumeSession(page, wallet);
    const send = sendTab(page);
    await send.open(domain);

    // Refused at the field: nothing reaches the wallet.
    await send.field.fill(ZERO);
    await send.sendButton.click();
    await expect(send.dialog.getByText('The zero address belongs to no one')).toBeVisible();
    await send.field.fill(owner.toLowerCase());
    await expect(send.dialog.getByText('This is the wallet that holds the domain now')).toBeVisible();
    await send.field.fill(breakChecksum(receiver));
    await expect(send.dialog.getByText('does not match its checksum')).toBeVisible();
    expect(wallet.requests).not.toContain('eth_sendTransaction');

    // A good address: what moves and what ends, in words, before the wallet opens.
    await send.field.fill(receiver);
    const words = send.dialog.getByLabel('What sending does');
    await expect(words).toContainText(`${domain}, its `);
    await expect(words).toContainText('DNSSEC');
    await expect(words).toContainText('Auto-renew is switched off');
    await expect(words).toContainText('every access you granted');

    // Declined in the wallet: said, and nothing moved.
    wallet.rejectNext('eth_sendTransaction');
    await send.sendButton.click();
    await expect(send.dialog.getByRole('alert').filter({ hasText: 'Transfer declined' })).toContainText(`${domain} is still yours`);
    expect(await nftOwnerOf(domain)).toBe(owner);

    // Sent; the service stops answering while the transaction is pending, and the result shows when it is back.
    const held = wallet.holdNext('eth_sendTransaction');
    await send.sendButton.click();
    await held.reached;
    await page.route(`${API_URL}/**`, (route) => route.abort('connectionrefused'));
    held.release();
    await expect(send.dialog).toBeHidden();
    const status = send.section.getByRole('status').first();
    await expect(status).toContainText(/Transaction 0x[0-9a-f]{64}/);
    await expect(send.section.getByRole('alert').filter({ hasText: 'The service is not answering right now' })).toBeVisible();
    await expect(status).toContainText(/mined in block \d+/);
    expect(await nftOwnerOf(domain)).toBe(receiver);
    await page.unroute(`${API_URL}/**`);
    await expect(send.section.getByText(`Sent: ${domain} now belongs to ${receiver}`)).toBeVisible({ timeout: 15_000 });

    // This wallet is refused (the page is still the domain's), and the domain has left its list. In the app, no reload.
    const records = recordsPage(page);
    await page.getByRole('tab', { name: 'Records' }).click();
    await expect(page.getByRole('heading', { name: 'DNS records' })).toBeVisible();
    await records.fillNew('A', 'old', { 'IPv4 address': '192.0.2.51' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog.getByRole('alert')).toContainText(`It belongs to ${receiver}`);
    await page.keyboard.press('Escape');
    const list = domainsPage(page);
    const toList = () => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
    await toList();
    await expect(page.getByRole('heading', { name: 'My domains' })).toBeVisible();
    await expect(list.link(domain)).toHaveCount(0);

    // The receiver lists it, edits its records, and reads the transfer in its history.
    await wallet.switchAccount(1);
    await expect(header(page).account(receiver)).toBeVisible();
    await signIn(page, wallet);
    await toList();
    await list.link(domain).click();
    await expect(page.getByRole('heading', { name: 'DNS records' })).toBeVisible();
    await records.addAndSign('A', 'new', { 'IPv4 address': '192.0.2.52' });
    await expect(records.row('A', 'new')).toContainText('192.0.2.52');
    const history = historyPage(page);
    await history.open();
    await expect(history.section.getByText(`Sent to ${displayAddress(receiver)} by ${displayAddress(owner)} on the chain`)).toBeVisible();
  });
});

test.describe('sending a domain to another wallet at phone width', () => {
  test.describe.configure({ timeout: 120_000 });
  const ownerKey = generatePrivateKey();
  const receiver = privateKeyToAccount(generatePrivateKey()).address;
  test.use({ walletKeys: [ownerKey], viewport: { width: 390, height: 844 } });

  test('the dialog refuses the zero address at the field and says what moves and ends, its send button within reach', async ({ page, wallet }) => {
    const domain = `send-phone-${Date.now().toString(36)}.com`;
    await ownDomain(ownerKey, domain);
    await resumeSession(page, wallet);
    const send = sendTab(page);
    await send.open(domain);
    await send.field.fill(ZERO);
    await send.field.blur();
    await expect(send.dialog.getByText('The zero address belongs to no one')).toBeInViewport();
    await send.field.fill(receiver);
    await expect(send.dialog.getByLabel('What sending does')).toContainText(`go to ${receiver}`);
    await expect(send.sendButton).toBeInViewport();
    expect(wallet.requests).not.toContain('eth_sendTransaction');
  });
});
