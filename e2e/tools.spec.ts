import { test, expect } from './support/fixtures.ts';
import { TEST_KEYS } from './support/keys.ts';
import { expectSignedIn, walletModal } from './support/pages.ts';
import { ownDomain } from './support/service-client.ts';
import { TEST_WALLET_NAME } from './support/test-wallet.ts';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';

const domain = `tools-${Date.now().toString(36)}.com`;

/**
 * Connect a tool (issue 48): the owner opens the domain's Tools tab, chooses "Certificates", is told in words what
 * the key may do and that the wallet asks to sign in once, signs in, copies the certbot configuration with the new
 * key's TSIG secret, and finds the key in the list with its scope in words.
 */
test.describe('Connect a tool', () => {
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async () => {
    await ownDomain(TEST_KEYS.alice, domain);
  });

  test('certificates: the narrowest key, made after one sign-in, its certbot configuration copied, then listed in words', async ({ page, wallet }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`/domains/${domain}?tab=tools`);
    const panel = page.getByRole('tabpanel', { name: 'Tools' });
    await panel.getByRole('radio', { name: /^Certificates \(certbot, lego, Caddy, Traefik, cert-manager\)/ }).check();

    // Before the wallet is asked for anything: what the key may do, and that a sign-in comes first.
    const form = panel.getByRole('form', { name: 'The key for this tool' });
    await expect(form.getByRole('status')).toContainText(`This makes a key that may write TXT under _acme-challenge and _acme-challenge.www only of ${domain}, with a TSIG form for DNS UPDATE.`);
    await expect(form.getByRole('status')).toContainText('First your wallet asks you to sign in, once');
    await form.getByRole('button', { name: 'Sign in and make the key' }).click();
    await walletModal(page).getByRole('button', { name: TEST_WALLET_NAME }).click();
    await walletModal(page).getByRole('button', { name: 'Sign message' }).click();
    await expectSignedIn(page, wallet);

    // The configuration, once, with the key's TSIG form: copied as it is shown.
    const credentials = panel.getByRole('textbox', { name: 'certbot credentials file' });
    await expect(credentials).toHaveValue(new RegExp(`^dns_rfc2136_port = ${process.env.E2E_DNS_PORT}$`, 'm'));
    const shown = await credentials.inputValue();
    expect(shown).toMatch(/^dns_rfc2136_server = 127\.0\.0\.1$/m);
    expect(shown).toMatch(/^dns_rfc2136_name = nfk-[0-9a-f-]{36}\.$/m);
    expect(shown).toMatch(/^dns_rfc2136_secret = [A-Za-z0-9+/]{43}=$/m);
    await panel.getByRole('button', { name: 'Copy the certbot credentials file' }).click();
    await expect(page.getByText('Copied the certbot credentials file')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    await expect(panel.getByRole('textbox', { name: 'certbot command' })).toHaveValue(`certbot certonly --dns-rfc2136 --dns-rfc2136-credentials ~/.secrets/namefi-rfc2136.ini --dns-rfc2136-propagation-seconds 5 --email you@example.com --agree-tos -d '${domain}' -d 'www.${domain}'`);

    // Done: the secret is gone from the page, and the key is listed with its scope in words.
    await panel.getByRole('button', { name: 'Done: hide the secret' }).click();
    await expect(panel.getByRole('textbox', { name: 'certbot credentials file' })).toHaveCount(0);
    const keys = panel.getByRole('region', { name: `Keys that reach ${domain}` });
    const item = keys.getByRole('listitem').filter({ hasText: `Certificates for ${domain}` });
    await expect(item).toContainText('Writes TXT under _acme-challenge and _acme-challenge.www only; has a TSIG form for DNS UPDATE');
    await expect(item).toContainText('Never used');
    expect(await page.content()).not.toContain(shown.match(/dns_rfc2136_secret = (\S+)/)![1]);
  });
});
