import { test, expect } from './support/fixtures.ts';
import { call } from './support/service-client.ts';
import { signIn } from './support/pages.ts';

test.describe('settings', () => {
  test('create, list and revoke an API key; the revoked key stops working', async ({ page, wallet }) => {
    await page.goto('/settings');
    await expect(page.getByText('Sign in to manage API keys')).toBeVisible();
    await signIn(page, wallet);

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

    await field.fill(`nfk_${'B'.repeat(43)}`);
    await page.getByRole('checkbox', { name: 'Remember on this device' }).check();
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.reload();
    await expect(page.getByText('In use: nfk_BBBB…'), 'a remembered key survives a reload').toBeVisible();
    await page.getByRole('button', { name: 'Forget key' }).click();
    await expect(page.getByText('Not set')).toBeVisible();
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
  });
});
