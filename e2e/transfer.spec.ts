import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { nftOwnerOf, transferDomainNft } from './support/chain.ts';
import { header, resumeSession, signIn } from './support/pages.ts';
import { ownDomain } from './support/service-client.ts';
import { domainsPage } from './pages/domains.ts';
import { recordsPage } from './pages/records.ts';

/**
 * Keys of their own rather than alice and bob: alice is anvil's account 0, which the service sends its own
 * transactions from, and a transfer from the same account could race it for a nonce.
 */
const oldOwnerKey = generatePrivateKey();
const newOwnerKey = generatePrivateKey();
const oldOwner = privateKeyToAccount(oldOwnerKey).address;
const newOwner = privateKeyToAccount(newOwnerKey).address;
const domain = `moved-${Date.now().toString(36)}.com`;

test.describe('a domain NFT transferred on the chain', () => {
  test.describe.configure({ timeout: 180_000 });
  test.use({ walletKeys: [oldOwnerKey, newOwnerKey] });

  test('takes the edit rights with it: the old owner is told whose it is now, the new owner lists and edits it', async ({ page, wallet }) => {
    await ownDomain(oldOwnerKey, domain);
    expect(await nftOwnerOf(domain)).toBe(oldOwner);
    const records = recordsPage(page);
    const list = domainsPage(page);
    await resumeSession(page, wallet);
    await list.open();
    await expect(list.link(domain)).toBeVisible();
    await records.open(domain);

    await transferDomainNft(oldOwnerKey, newOwner, domain);
    expect(await nftOwnerOf(domain)).toBe(newOwner);

    // The old owner's edit is refused (403) and explained: whose the domain is now.
    await records.fillNew('A', 'web', { 'IPv4 address': '192.0.2.41' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    const alert = records.dialog.getByRole('alert');
    await expect(alert).toContainText(`cannot change ${domain}`);
    await expect(alert).toContainText(`It belongs to ${newOwner}`);
    await page.keyboard.press('Escape');
    await expect(records.rowWith('192.0.2.41')).toHaveCount(0);
    await list.open();
    await expect(page.getByText('No domains yet'), 'the old owner held only this domain').toBeVisible();
    await expect(list.link(domain)).toHaveCount(0);

    // The new owner signs in, finds the domain in the list and edits it.
    await wallet.switchAccount(1);
    await expect(header(page).account(newOwner)).toBeVisible();
    await signIn(page, wallet);
    await list.open();
    await list.link(domain).click();
    await expect(page.getByRole('heading', { name: 'DNS records' })).toBeVisible();
    await records.addAndSign('A', 'web', { 'IPv4 address': '192.0.2.42' });
    await expect(records.row('A', 'web')).toContainText('192.0.2.42');
  });
});
