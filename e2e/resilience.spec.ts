import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { API_URL } from './support/env.ts';
import { faucet, registerDomain, siweSignIn, waitForOrder } from './support/service-client.ts';
import { resumeSession } from './support/pages.ts';
import { recordsPage } from './pages/records.ts';

const owner = generatePrivateKey();
const domain = `steady-${Date.now().toString(36)}.com`;
const KEPT = '192.0.2.10';
const TYPED = '192.0.2.55';

// Once per worker, for both groups: a worker started again after a failure makes its own domain.
test.beforeAll(async () => {
  const token = await siweSignIn(owner);
  await faucet(token);
  const order = await registerDomain(owner, domain, { records: [{ name: 'www', type: 'A', rdata: KEPT, ttl: 3600 }] });
  expect((await waitForOrder(token, order.id)).order.status).toBe('SUCCEEDED');
});

/** Issue 15: the service drops in the middle of an edit; the person's work stays and the page recovers. */
test.describe('trouble keeps the work', () => {
  test.use({ walletKeys: [owner] });

  test('the service drops mid-edit: the typed record and the table stay, no signature while it is away, and it recovers', async ({ page, wallet }) => {
    await resumeSession(page, wallet);
    const records = recordsPage(page);
    await records.open(domain);
    await expect(records.rowWith(KEPT)).toBeVisible();
    await records.fillNew('A', 'api', { 'IPv4 address': TYPED });

    // The service goes away: every request to it is refused at the network, as with a stopped process.
    await page.route(`${API_URL}/**`, (route) => route.abort('connectionrefused'));
    const typedSignatures = () => wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length;
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog.getByRole('alert').filter({ hasText: 'The service cannot be reached' })).toBeVisible();
    await expect(records.dialog.getByLabel('IPv4 address', { exact: true })).toHaveValue(TYPED);
    // The signing types were fetched when the page opened, so the wallet signs before the send finds the service gone.
    expect(typedSignatures(), 'signed once, before the service was known to be away').toBe(1);

    // Behind the open form (inert while the modal is up), so found by its role attribute rather than the a11y tree.
    const stale = page.locator('[role=alert]').filter({ hasText: /^Stale since \d\d:\d\d:\d\d/ });
    await expect(stale).toBeVisible({ timeout: 15_000 });
    await expect(stale).toHaveCount(1);
    await expect(records.rowWith(KEPT)).toBeVisible();

    // Known to be away now: trying again asks for no signature and keeps the form.
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog.getByText('Nothing was signed. Your record is still here')).toBeVisible();
    expect(typedSignatures()).toBe(1);

    // The service returns: the page notices by itself, and the kept record goes through.
    await page.unroute(`${API_URL}/**`);
    await expect(stale).toHaveCount(0, { timeout: 20_000 });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog).toBeHidden();
    await expect(records.rowWith(TYPED)).toBeVisible();
    await expect(records.rowWith(KEPT)).toBeVisible();
    expect(typedSignatures()).toBe(2);
  });
});

test.describe('signed out means read-only', () => {
  test.use({ walletKeys: [owner] });

  test('after Sign out no write is signed: the record waits in the change set until signing in again', async ({ page, wallet }) => {
    await resumeSession(page, wallet);
    const records = recordsPage(page);
    await records.open(domain);
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Signed out: these records are read-only' })).toBeVisible();

    const typed = () => wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length;
    const before = typed();
    await records.fillNew('A', 'after-signout', { 'IPv4 address': '192.0.2.77' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Kept in the change set: sign in to send it' })).toBeVisible();
    await expect(records.changeSet).toContainText('192.0.2.77');
    await page.getByRole('dialog').getByRole('button', { name: 'Sign message' }).click();
    await expect(page.getByRole('banner').getByText('Signed in', { exact: true })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'read-only' })).toHaveCount(0);
    expect(typed(), 'no write signature while signed out').toBe(before);
    await expect(records.rowWith('192.0.2.77')).toHaveCount(0);
  });
});
