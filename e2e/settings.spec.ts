import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { call } from './support/service-client.ts';
import { signIn } from './support/pages.ts';
import { watchCspViolations } from './support/csp.ts';

test.describe('settings', () => {
  // A wallet of its own: the API key list starts empty whatever other journeys do at the same time.
  test.use({ walletKeys: [generatePrivateKey()] });
  test('create, list and revoke an API key; the revoked key stops working', async ({ page, wallet }) => {
    const violations = await watchCspViolations(page);
    const response = await page.goto('/settings');
    // The production build carries its policy in the page and, from vite preview, as a header that also forbids framing
    // by anyone but the Safe App host the build names (the e2e build: e2e/support/safe-app-host.ts).
    // Scripts: the build's own files, and inline only the pre-rendered page's few scripts, each by its hash (never 'unsafe-inline').
    await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', /script-src 'self'( 'sha256-[A-Za-z0-9+/]+={0,2}')*(;|$)/);
    expect(response?.headers()['content-security-policy']).toMatch(/; frame-ancestors http:\/\/127\.0\.0\.1:\d+$/);
    await expect(page.getByText('Sign in to manage API keys')).toBeVisible();
    await signIn(page, wallet);
    expect(violations, 'Content-Security-Policy violations while connecting and signing in').toEqual([]);

    await expect(page.getByText('No API keys yet')).toBeVisible();

    // A label is required: the error lands on the field.
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByLabel('New key label')).toHaveAccessibleDescription('Give the key a label');

    await page.getByLabel('New key label').fill('deploy script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await expect(shown).toBeVisible();
    const key = await shown.getByRole('textbox').inputValue();
    expect(key).toMatch(/^nfk_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();

    const row = page.getByRole('row', { name: /deploy script/ });
    await expect(row).toBeVisible();
    await expect(row).toContainText(key.slice(0, 8));
    await expect(row).toContainText('Never');
    // The key works against the service, acting as this wallet.
    const listed = await call('listApiKeys', {}, { 'x-api-key': key });
    expect(listed.map((k) => k.label)).toEqual(['deploy script']);

    await row.getByRole('button', { name: 'Revoke deploy script' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke “deploy script”?' });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Revoked “deploy script”' })).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(page.getByText('No API keys yet')).toBeVisible();
    await expect(call('listApiKeys', {}, { 'x-api-key': key })).rejects.toMatchObject({ status: 401 });
  });

  test('an API key given in settings is used instead of the wallet, and forgotten on request', async ({ page }) => {
    await page.goto('/settings');
    const field = page.getByRole('textbox', { name: 'API key', exact: true });
    await field.fill('not-a-key');
    await page.getByRole('button', { name: 'Use this key' }).click();
    await expect(field).toHaveAccessibleDescription(/An API key looks like nfk_/);

    // A well-formed key the service does not know: the manager explains the refusal.
    await field.fill(`nfk_${'A'.repeat(43)}`);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await expect(page.getByText('In use: nfk_AAAA…')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'The API key was not accepted' })).toBeVisible();

    await page.reload();
    await expect(page.getByText('Not set'), 'a key not remembered lives in memory only').toBeVisible();

    const remember = page.getByRole('checkbox', { name: 'Remember on this device' });
    await expect(remember).not.toBeChecked();
    await expect(remember).toHaveAccessibleDescription(/saved in this browser’s localStorage: anyone using this browser profile.*only in memory for this tab/);
    await field.fill(`nfk_${'B'.repeat(43)}`);
    await remember.check();
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.reload();
    await expect(page.getByText('In use: nfk_BBBB…'), 'a remembered key survives a reload').toBeVisible();
    await expect(remember).toBeChecked();

    // Unticking forgets it from the browser at once; it stays in use for this tab only.
    await remember.uncheck();
    await expect(page.getByText('In use: nfk_BBBB…')).toBeVisible();
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('apiKey')))).toEqual([]);
    await page.reload();
    await expect(page.getByText('Not set'), 'an unticked key is gone after a reload').toBeVisible();

    await field.fill(`nfk_${'C'.repeat(43)}`);
    await remember.check();
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.getByRole('button', { name: 'Forget key' }).click();
    await expect(page.getByText('Not set')).toBeVisible();
    await expect(remember).not.toBeChecked();
    await page.reload();
    await expect(page.getByText('Not set')).toBeVisible();
  });

  test('the service URL is checked where it is typed', async ({ page }) => {
    await page.goto('/settings');
    const url = page.getByLabel('Service URL');
    await url.fill('api.namefi.io');
    await page.getByRole('button', { name: 'Use this service' }).click();
    await expect(url).toHaveAccessibleDescription(/Enter a full URL/);
    await url.fill('https://api.namefi.io/v1');
    await page.getByRole('button', { name: 'Use this service' }).click();
    await expect(url).toHaveAccessibleDescription(/ends in \/v-next/);
    // The build's Content-Security-Policy would block a service it does not name: refused where it is typed.
    await url.fill('https://api.namefi.io/v-next');
    await page.getByRole('button', { name: 'Use this service' }).click();
    // A build for the local service allows any local port too; a service beyond this machine needs its own build.
    await expect(url).toHaveAccessibleDescription(
      `This dashboard may only connect to ${new URL(process.env.E2E_API_URL!).origin}, http://127.0.0.1:*, http://localhost:*, ${new URL(process.env.E2E_CHAIN_RPC_URL!).origin} (its Content-Security-Policy); another service needs its own build`,
    );
  });
});
