import { test, expect } from './support/fixtures.ts';
import { TEST_KEYS } from './support/keys.ts';
import { resumeSession } from './support/pages.ts';
import { call, ownDomain, siweSignIn, withToken } from './support/service-client.ts';

const domain = `renew-${Date.now().toString(36)}.com`;
const DAY_MS = 86_400_000;

test.describe('Auto-renew', () => {
  test.describe.configure({ timeout: 120_000 });

  test.beforeAll(async () => {
    await ownDomain(TEST_KEYS.alice, domain);
  });

  test('switch auto-renew on for 5 years: said before the wallet opens, a declined signature keeps the form, then signed for real', async ({ page, wallet }) => {
    await resumeSession(page, wallet);
    await page.goto(`/domains/${domain}`);
    await page.getByRole('tab', { name: 'Renewal' }).click();
    await expect(page.getByRole('tab', { name: 'Renewal' })).toHaveAttribute('aria-selected', 'true');
    const panel = page.getByRole('region', { name: 'Auto-renew' });
    const state = panel.getByRole('status').first();
    const toggle = panel.getByRole('switch', { name: 'Renew automatically' });
    const years = panel.getByLabel('Years each renewal adds');
    const dialog = page.getByRole('dialog', { name: `Renew ${domain} automatically?` });
    const signatures = () => wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length;
    await expect(state).toHaveText('Off: the domain expires unless someone renews it.');
    await expect(toggle).toHaveAttribute('aria-checked', 'false');

    await toggle.click();
    await years.selectOption('5');
    await panel.getByRole('button', { name: 'Save auto-renew' }).click();
    // What will happen and what the wallet signs are said first; the wallet has not been asked yet.
    await expect(dialog).toContainText(`Before ${domain} expires, the service renews it for 5 years from your credit`);
    await expect(dialog.getByRole('note')).toContainText(`Renew ${domain} automatically, 5 years at a time, from your credit (SetAutoRenew)`);
    const before = signatures();

    // Declined in the wallet: nothing changes, and the form keeps what was chosen.
    wallet.rejectNext('eth_signTypedData_v4');
    await dialog.getByRole('button', { name: 'Sign and save' }).click();
    await expect(panel.getByText('You declined the signature; auto-renew is unchanged.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(state).toHaveText('Off: the domain expires unless someone renews it.');
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(years).toHaveValue('5');

    // Signed for real this time.
    await panel.getByRole('button', { name: 'Save auto-renew' }).click();
    await dialog.getByRole('button', { name: 'Sign and save' }).click();
    await expect(dialog).toBeHidden();
    await expect(state).toHaveText(/^On: renews for 5 years at a time from the owner's credit; the next attempt is due on \d{4}-\d{2}-\d{2}\.$/);
    expect(signatures()).toBe(before + 2);

    // The service holds it: nextAttemptAt is the expiry less 30 days (AUTO_RENEW_DAYS), and the panel shows that day.
    const setting = await call('getAutoRenew', { query: { normalizedDomainName: domain } });
    const token = await siweSignIn(TEST_KEYS.alice);
    const owned = (await call('getUserDomains', {}, withToken(token))).find((d) => d.normalizedDomainName === domain)!;
    expect(setting).toMatchObject({ enabled: true, durationInYears: 5, lastAttempt: null });
    expect(setting.nextAttemptAt).toBe(new Date(Date.parse(owned.expirationDate) - 30 * DAY_MS).toISOString());
    await expect(state).toContainText(setting.nextAttemptAt!.slice(0, 10));
    // After a reload the page reads it back.
    await page.reload();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(years).toHaveValue('5');
  });
});
