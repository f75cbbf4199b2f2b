import { test, expect } from './support/fixtures.ts';
import { addressOf, TEST_KEYS } from './support/keys.ts';
import { header, resumeSession, signIn } from './support/pages.ts';
import { call, ownDomain, siweSignIn, signedCall, withToken } from './support/service-client.ts';
import { transferDomainNft } from './support/chain.ts';
import { generatePrivateKey } from 'viem/accounts';
import { recordsPage, typedSignatures } from './pages/records.ts';
import { historyPage } from './pages/history.ts';

const run = Date.now().toString(36);
const domain = `access-${run}.com`;
const sold = `access-sold-${run}.com`;
const given = `access-given-${run}.com`;
const keyed = `access-key-${run}.com`;
const short = (address: string) => `${address.slice(0, 4)}…${address.slice(-4)}`;

/**
 * Access (issue 34): the owner grants an editor limited to www A records for a week; the second wallet signs in, sees
 * the domain under "Shared with you", edits www's A record and is refused on MX before the wallet opens; the owner
 * reads the entry in History and verifies both signatures, then revokes, and the grantee's next write is refused.
 */
test.describe('Access: a grant to another wallet', () => {
  test.describe.configure({ timeout: 240_000 });

  test.beforeAll(async () => {
    for (const name of [domain, sold, given, keyed]) await ownDomain(TEST_KEYS.alice, name);
  });

  test('grant www A for a week, the grantee edits within it and is refused outside it, the owner verifies and revokes', async ({ page, wallet }) => {
    const owner = addressOf(TEST_KEYS.alice);
    const helper = addressOf(TEST_KEYS.bob);
    const records = recordsPage(page);
    const history = historyPage(page);

    // The owner, a returning visitor, adds a person: the grant is said in words before the wallet opens.
    await resumeSession(page, wallet, `/domains/${domain}?tab=access`);
    const access = page.getByRole('region', { name: 'Access' });
    const form = access.getByRole('form', { name: 'Add a person' });
    await form.getByLabel('Wallet address').fill(helper);
    await form.getByLabel('Role').selectOption('editor');
    await form.getByLabel('Names').fill('www');
    await form.getByLabel('Record types').fill('A');
    await form.getByRole('button', { name: 'Review the grant' }).click();
    const review = page.getByRole('dialog', { name: `Let ${short(helper.toLowerCase())} help with ${domain}?` });
    await expect(review).toContainText(`${short(helper.toLowerCase())} may add, change and delete records (A under www only) of ${domain} until`);
    await expect(review.getByRole('note')).toContainText(`Let ${helper.toLowerCase()} act as editor on ${domain}`);
    await review.getByRole('button', { name: 'Sign and grant' }).click();
    await expect(review).toBeHidden();
    const people = access.getByRole('list', { name: 'People with access' });
    await expect(people).toContainText(short(helper.toLowerCase()));
    await expect(people).toContainText('A under www only');

    // The second wallet signs in and finds the domain shared with it.
    await wallet.switchAccount(1);
    await expect(header(page).account(helper)).toBeVisible();
    await signIn(page, wallet);
    await page.goto('/domains');
    const shared = page.getByRole('region', { name: 'Shared with you' });
    await expect(shared).toContainText(`You may add, change and delete records: A under www only`);
    await shared.getByRole('link', { name: domain }).click();
    await expect(page.getByRole('heading', { name: 'DNS records' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(`Shared with you by ${short(owner.toLowerCase())}: editor`)).toBeVisible();
    // Only what an editor may do: no Renewal, Send or Access tab.
    await expect(page.getByRole('tab', { name: 'Send' })).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Access' })).toHaveCount(0);

    await records.addAndSign('A', 'www', { 'IPv4 address': '192.0.2.34' });
    await expect(records.row('A', 'www')).toContainText('192.0.2.34');

    // MX is outside the grant: said before the wallet opens, nothing signed.
    const before = typedSignatures(wallet.requests);
    await records.fillNew('MX', 'www', { Priority: '10', 'Mail server': 'mail.example.net' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(page.getByText('Your grant covers A under www only: MX at www is outside it.').first()).toBeVisible();
    expect(typedSignatures(wallet.requests)).toBe(before);
    await page.keyboard.press('Escape');

    // The owner reads the entry and verifies both signatures (the grantee's change, the owner's grant).
    await wallet.switchAccount(0);
    await expect(header(page).account(owner)).toBeVisible();
    await signIn(page, wallet);
    await page.goto(`/domains/${domain}`);
    await history.open();
    await expect(history.entries().first()).toContainText(`by ${short(helper.toLowerCase())} under the editor grant from ${short(owner.toLowerCase())} (owner)`);
    const [latest] = (await call('getZoneHistory', { query: { zoneName: domain } }, withToken(await siweSignIn(TEST_KEYS.alice)))).entries;
    const entry = await history.entry(latest.serial);
    await entry.getByRole('button', { name: `Verify the signature of serial ${latest.serial}` }).click();
    await expect(entry.getByRole('status')).toHaveText(`signed by ${short(helper.toLowerCase())} ✓ with a key, under a grant signed by the owner ${short(owner.toLowerCase())} ✓ (in its scope and time)`);

    // The owner revokes; the grantee's next write is refused.
    await page.getByRole('tab', { name: 'Access' }).click();
    await access.getByRole('button', { name: `Revoke ${short(helper.toLowerCase())}` }).click();
    const confirm = page.getByRole('dialog', { name: `Revoke ${short(helper.toLowerCase())}?` });
    await confirm.getByRole('button', { name: 'Sign and revoke' }).click();
    await expect(confirm).toBeHidden();
    await expect(people).toContainText('Revoked on');
    await expect(signedCall(TEST_KEYS.bob, 'createDnsRecord', { zoneName: domain, name: 'www', type: 'A', rdata: '192.0.2.35', ttl: 300 })).rejects.toMatchObject({ status: 403 });
    const grants = await call('getDnsRecords', { query: { zoneName: domain } });
    expect(grants.some((r) => r.rdata === '192.0.2.35')).toBe(false);
  });

  test('the grantee gives the access up from the domain page, said before the wallet opens', async ({ page, wallet }) => {
    const helper = addressOf(TEST_KEYS.bob);
    await signedCall(TEST_KEYS.alice, 'grantZoneAccess', { zoneName: given, grantee: helper.toLowerCase(), role: 'viewer', names: [], types: [], expiresAt: Math.floor(Date.now() / 1000) + 86_400 });
    await wallet.switchAccount(1);
    await resumeSession(page, wallet, `/domains/${given}`);
    await expect(page.getByText(`Shared with you by ${short(addressOf(TEST_KEYS.alice).toLowerCase())}: viewer`)).toBeVisible({ timeout: 30_000 });
    // A viewer is offered no way to change: the records and their export, nothing to add, import or edit.
    await expect(page.getByRole('button', { name: 'Export zone file' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add record' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Import zone file' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0);
    await page.getByRole('button', { name: 'Give up this access' }).click();
    const dialog = page.getByRole('dialog', { name: `Give up your access to ${given}?` });
    const before = typedSignatures(wallet.requests);
    await expect(dialog.getByRole('note')).toContainText('RevokeZoneAccess');
    expect(typedSignatures(wallet.requests)).toBe(before);
    await dialog.getByRole('button', { name: 'Sign and give up' }).click();
    await expect(dialog).toBeHidden();
    expect(typedSignatures(wallet.requests)).toBe(before + 1);
    await expect(page.getByText(/: viewer$/)).toHaveCount(0);
    const grants = await call('listZoneAccess', { query: { zoneName: given } }, withToken(await siweSignIn(TEST_KEYS.alice)));
    expect(grants.filter((g) => g.grantee === helper.toLowerCase()).every((g) => g.revokedAt !== null)).toBe(true);
  });

  test('the owner sends the domain away on the chain: a grant made before no longer works', async ({ page, wallet }) => {
    const helper = addressOf(TEST_KEYS.bob);
    const buyer = addressOf(generatePrivateKey());
    const week = Math.floor(Date.now() / 1000) + 7 * 86_400;
    await signedCall(TEST_KEYS.alice, 'grantZoneAccess', { zoneName: sold, grantee: helper.toLowerCase(), role: 'editor', names: [], types: [], expiresAt: week });
    expect((await signedCall(TEST_KEYS.bob, 'createDnsRecord', { zoneName: sold, name: 'before', type: 'A', rdata: '192.0.2.36', ttl: 300 })).rdata).toBe('192.0.2.36');

    // The owner sends the NFT with any wallet; the service follows the registry's Transfer log.
    await transferDomainNft(TEST_KEYS.alice, buyer, sold);
    await expect.poll(async () => (await call('getRenewalQuote', { query: { normalizedDomainName: sold } })).ownerAddress, { timeout: 30_000 }).toBe(buyer.toLowerCase());

    // The helper no longer finds it shared, and a write from the domain page is refused with the reason.
    await wallet.switchAccount(1);
    await resumeSession(page, wallet, '/domains');
    await expect(page.getByRole('link', { name: sold })).toHaveCount(0);
    await page.goto(`/domains/${sold}`);
    const records = recordsPage(page);
    await records.fillNew('A', 'after', { 'IPv4 address': '192.0.2.37' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog.getByRole('alert')).toContainText(`was revoked when ${sold} moved to another holder`);
    expect((await call('getDnsRecords', { query: { zoneName: sold } })).some((r) => r.rdata === '192.0.2.37')).toBe(false);
  });

  test('a key that may only write TXT under _acme: made in Settings, it adds one from the dashboard and is refused everything else', async ({ page, wallet }) => {
    await resumeSession(page, wallet, '/settings');
    await page.getByLabel('New key label').fill('certbot');
    await page.getByLabel('Limit what this key may do').check();
    await page.getByLabel('Domains').fill(keyed);
    await page.getByLabel('Names').fill('_acme');
    await page.getByLabel('Record types').fill('TXT');
    await expect(page.getByText(`This key: Reads and writes TXT under _acme only on ${keyed}. It cannot create keys.`)).toBeVisible();
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const key = await shown.getByRole('textbox').inputValue();
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('row', { name: /certbot/ })).toContainText(`TXT under _acme only on ${keyed}`);

    // The dashboard acts with the key (remembered, so it survives the navigation): no wallet signature is asked.
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key);
    await page.getByRole('checkbox', { name: 'Remember on this device' }).check();
    await page.getByRole('button', { name: 'Use this key' }).click();
    await expect(page.getByText(`In use: ${key.slice(0, 8)}…`)).toBeVisible();
    const before = typedSignatures(wallet.requests);
    await page.goto(`/domains/${keyed}`);
    const records = recordsPage(page);
    await records.fillNew('TXT', '_acme', { Text: 'token-from-certbot' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog).toBeHidden();
    await expect(records.row('TXT', '_acme')).toContainText('token-from-certbot');

    // Anything else is refused with the reason, where it was asked, and nothing is written.
    await records.fillNew('A', 'www', { 'IPv4 address': '192.0.2.38' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog.getByRole('alert')).toContainText(`Out of scope: the API key's scope covers TXT under _acme only; this change touches A at www of ${keyed}`);
    await page.keyboard.press('Escape');
    expect(typedSignatures(wallet.requests)).toBe(before);
    await expect(call('createDnsRecord', { body: { zoneName: keyed, name: 'www', type: 'TXT', rdata: 'x', ttl: 300 } }, { 'x-api-key': key })).rejects.toMatchObject({ status: 403 });
    await expect(call('createDnsRecord', { body: { zoneName: domain, name: '_acme', type: 'TXT', rdata: 'x', ttl: 300 } }, { 'x-api-key': key })).rejects.toMatchObject({ status: 403 });
    const written = await call('getDnsRecords', { query: { zoneName: keyed } });
    expect(written.filter((r) => r.type === 'TXT' || r.rdata === '192.0.2.38').map((r) => `${r.type} ${r.name} ${r.rdata}`)).toEqual(['TXT _acme "token-from-certbot"']);
  });
});
