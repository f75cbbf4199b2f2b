import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { approveSigner, e2eChain, nftOwnerOf, saltOf, smartAccountOf, transferDomainNft, wrapForUndeployed } from './support/chain.ts';
import { displayAddress } from './support/keys.ts';
import { editRecordsAndPark, expectListed, registerThroughCheckout, useDelegatedAccount } from './support/journeys.ts';
import { header, signIn, walletModal } from './support/pages.ts';
import { ownDomain } from './support/service-client.ts';
import { recordsPage } from './pages/records.ts';

const run = Date.now().toString(36);
const short = (address: string) => displayAddress(address);

test.describe('smart-account wallets', () => {
  // Each journey registers, edits and parks with real signatures checked on the chain: longer than a minute on two cores.
  test.describe.configure({ timeout: 180_000 });
  const ownerKey = generatePrivateKey();
  // The wallet acts as the contract account and signs through its owner key: MetaMask cannot, viem can.
  test.use({ walletKeys: [ownerKey], walletMode: 'viem' });

  test('a smart-account wallet (ERC-1271, deployed) signs in, registers, edits records and parks as itself', async ({ page, wallet }) => {
    const account = await smartAccountOf(ownerKey, { salt: saltOf(`deployed-${run}`), deploy: true });
    await wallet.actAsSmartAccount({ address: account.address });
    const domain = `sca-${run}.com`;

    await page.goto('/');
    await signIn(page, wallet);
    await expect(header(page).account(account.address)).toBeVisible();
    // No delegated account: the wallet is the account, so nobody acts for anybody else.
    await expect(page.getByRole('banner').getByText(/Acting for/)).toHaveCount(0);

    await registerThroughCheckout(page, domain);
    expect(await nftOwnerOf(domain)).toBe(account.address);
    await expectListed(page, domain);
    await editRecordsAndPark(page, domain, '192.0.2.31');
  });

  test('an undeployed smart account signs in, registers and edits with ERC-6492 signatures, and stays undeployed', async ({ page, wallet }) => {
    const account = await smartAccountOf(ownerKey, { salt: saltOf(`counterfactual-${run}`), deploy: false });
    await wallet.actAsSmartAccount({ address: account.address, wrap: (signature) => wrapForUndeployed(account, signature) });
    const { clients } = await e2eChain();
    expect(await clients.public.getCode({ address: account.address })).toBeUndefined();

    await page.goto('/');
    await signIn(page, wallet);
    await expect(header(page).account(account.address)).toBeVisible();
    // The session is the account's: its (empty) domain list and its balance, read with the account's token.
    await page.goto('/domains');
    await expect(page.getByText('No domains yet')).toBeVisible();

    // Every signature of a registration and a record change is wrapped, and the service asks the factory-made account.
    const domain = `cf-${run}.com`;
    await registerThroughCheckout(page, domain);
    expect(await nftOwnerOf(domain)).toBe(account.address);
    const records = recordsPage(page);
    await records.open(domain);
    await records.addAndSign('A', 'web', { 'IPv4 address': '192.0.2.36' });
    await expect(records.row('A', 'web')).toContainText('192.0.2.36');
    expect(await clients.public.getCode({ address: account.address }), 'verifying 6492 deploys nothing for real').toBeUndefined();
  });
});

test.describe('an EOA acting for a smart account (delegated-account setting)', () => {
  test.describe.configure({ timeout: 180_000 });
  const ownerKey = generatePrivateKey();
  const signerKey = generatePrivateKey();
  const signer = privateKeyToAccount(signerKey).address;
  test.use({ walletKeys: [signerKey] });

  test('an approved signer signs in as the account, registers, edits records and parks; the account owns the NFT', async ({ page, wallet }) => {
    const account = await smartAccountOf(ownerKey, { salt: saltOf(`approved-${run}`), deploy: true });
    await approveSigner(ownerKey, account.address, signer);
    const domain = `delegated-${run}.com`;

    await useDelegatedAccount(page, account.address);
    await signIn(page, wallet);
    const banner = page.getByRole('banner');
    await expect(banner.getByText(`Acting for ${short(account.address)} (smart account) · signer ${short(signer)}`)).toBeVisible();

    await registerThroughCheckout(page, domain, `Your wallet ${short(signer)} signs for the smart account ${short(account.address)}.`);
    expect(await nftOwnerOf(domain), 'the account holds the NFT, not the signing wallet').toBe(account.address);
    await expectListed(page, domain);
    await editRecordsAndPark(page, domain, '192.0.2.32');
    await expect(header(page).signedInBadge).toBeVisible();

    // Back to acting as the wallet itself: the account's session ends (a session is one account's), and the
    // wallet's own session does not see the account's domain.
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Stop using it' }).click();
    await expect(page.getByText('You changed the account you act for')).toBeVisible();
    await expect(header(page).notSignedInBadge).toBeVisible();
    await expect(banner.getByText(/Acting for/)).toHaveCount(0);
    await signIn(page, wallet);
    await page.goto('/domains');
    await expect(page.getByText('No domains yet')).toBeVisible();
    await expect(page.getByRole('link', { name: domain, exact: true })).toHaveCount(0);
  });

  test('a signer the account has not approved is refused at sign-in, and a write is refused, each with what to do', async ({ page, wallet }) => {
    const account = await smartAccountOf(ownerKey, { salt: saltOf(`unapproved-${run}`), deploy: true });
    // The account owns a domain (its owner registered it, then moved the NFT into the account).
    const domain = `held-${run}.com`;
    await ownDomain(ownerKey, domain);
    await transferDomainNft(ownerKey, account.address, domain);

    await useDelegatedAccount(page, account.address);
    await header(page).connectButton.click();
    await walletModal(page).getByRole('button', { name: 'Test Wallet' }).click();
    await walletModal(page).getByRole('button', { name: 'Sign message' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: `${short(account.address)} does not accept this wallet’s signatures` });
    await expect(refusal).toBeVisible();
    await expect(refusal).toContainText(`Approve ${short(signer)} as a signer of the account`);
    await expect(refusal).toContainText('clear the delegated account in Settings');

    // A signed write for the account is refused by the service (401) and explained the same way.
    const records = recordsPage(page);
    await records.open(domain);
    await expect(header(page).notSignedInBadge).toBeVisible();
    await expect(page.getByRole('banner').getByText(`Acting for ${short(account.address)} (smart account) · signer ${short(signer)}`)).toBeVisible();
    await records.fillNew('A', 'web', { 'IPv4 address': '192.0.2.33' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    const alert = records.dialog.getByRole('alert');
    await expect(alert).toContainText(`${short(account.address)} does not accept this wallet’s signatures`);
    await expect(alert).toContainText(`Approve ${short(signer)} as a signer of the account`);
    expect(wallet.requests).toContain('eth_signTypedData_v4');
  });
});
