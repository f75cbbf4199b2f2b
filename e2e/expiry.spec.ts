import { test, expect } from './support/fixtures.ts';
import { TEST_KEYS } from './support/keys.ts';
import { header, signIn } from './support/pages.ts';
import { domainsPage } from './pages/domains.ts';
import { recordsPage } from './pages/records.ts';
import { searchPage } from './pages/search.ts';
import { useService } from './pages/orders-service.ts';
import { startClockService, type ClockService } from './pages/clock-service.ts';

const DAY_S = 86_400;
const domain = `lapse-${Date.now().toString(36)}.com`;
let service: ClockService;

/**
 * A domain's life after expiry, walked in a real browser with the test clock: on a second local service of its own
 * (DEV_CONTROLS=true), since moving the shared service's clock would lapse every later journey's sessions and the
 * envelopes journeys sign themselves. Each move of the clock ends the SIWE session (12 hours), as it would.
 */
test.describe('Expiry: grace, redemption, release', () => {
  test.describe.configure({ timeout: 300_000 });

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    service = await startClockService();
    await service.register(TEST_KEYS.alice, domain, [
      { name: '@', type: 'A', rdata: '192.0.2.20', ttl: 300 },
      { name: 'www', type: 'A', rdata: '192.0.2.10', ttl: 300 },
    ]);
  });
  test.afterAll(async () => {
    await service?.stop();
  });

  test('let it expire: grace (still editable), redemption (holding page over DNS, writes refused), release (gone, available)', async ({ page, wallet }) => {
    await useService(page, service.apiUrl);
    const domains = domainsPage(page);
    const records = recordsPage(page);
    const banner = page.getByRole('region', { name: 'Expiry' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    // On two shared cores a page's first render can take a while: the list and the page get longer than the default.
    const slow = { timeout: 30_000 };
    /** The domains list, in the page (no reload). */
    const openList = async () => {
      await nav.getByRole('link', { name: 'Domains' }).click();
      await expect(page.getByRole('heading', { name: 'My domains' })).toBeVisible(slow);
    };
    /**
     * After the clock moved past the session's 12 hours: the page is loaded afresh (nothing cached), the service ends
     * the session at its first request, and we sign in again.
     */
    const openListSignedIn = async () => {
      await page.goto('/domains');
      await expect(page.getByRole('heading', { name: 'My domains' })).toBeVisible(slow);
      await expect(header(page).signInButton.or(header(page).connectButton)).toBeVisible(slow);
      await signIn(page, wallet);
    };
    const openDomain = async () => {
      await domains.link(domain).click();
      await expect(page.getByRole('heading', { name: 'DNS records' })).toBeVisible(slow);
    };

    await page.goto('/');
    await signIn(page, wallet);
    await openList();
    await expect(domains.link(domain)).toBeVisible(slow);
    await expect(domains.table.getByText('Expired (grace)')).toHaveCount(0);
    expect(await service.dig(`www.${domain}`, 'A')).toEqual(['192.0.2.10']);

    // Grace: a day past the expiry. Said in the list and on the page; DNS answers; a record is still added and signed.
    await service.advance(366 * DAY_S);
    await openListSignedIn();
    await expect(domains.table.getByRole('row').filter({ hasText: domain })).toContainText('Expired (grace)', slow);
    await openDomain();
    await expect(banner).toContainText(/Expired on \d{4}-\d{2}-\d{2}: in its grace period until \d{4}-\d{2}-\d{2}/);
    await expect(banner).toContainText('DNS still answers and you can still edit the records');
    await expect(banner.getByRole('link', { name: 'Renew' })).toHaveAttribute('href', `/domains/${domain}?tab=renewal`);
    await records.addAndSign('A', 'api', { 'IPv4 address': '192.0.2.11' });
    await expect(records.row('A', 'api')).toBeVisible();
    expect(await service.dig(`www.${domain}`, 'A')).toEqual(['192.0.2.10']);
    expect(await service.dig(`api.${domain}`, 'A')).toEqual(['192.0.2.11']);

    // Redemption: only the holding page answers over DNS; a record write is refused, naming the state.
    await service.advance(30 * DAY_S);
    expect(await service.dig(`www.${domain}`, 'A')).toEqual([]);
    expect(await service.dig(domain, 'TXT')).toEqual(['"This domain has expired. Its owner can renew it to restore it."']);
    await openListSignedIn();
    await expect(domains.table.getByRole('row').filter({ hasText: domain })).toContainText('Expired (redemption)', slow);
    await openDomain();
    await expect(banner).toContainText(/in redemption until \d{4}-\d{2}-\d{2}/);
    await expect(banner).toContainText('Only an "expired" holding page answers and records cannot be changed');
    await records.fillNew('A', 'mail', { 'IPv4 address': '192.0.2.12' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(page.getByText(/is in redemption \(expired on \d{4}-\d{2}-\d{2}\): its records cannot be changed/).first()).toBeVisible();
    const restoreFee = (await service.call('checkAvailability', { query: { domain } })).pricingDetails?.restoreFee;
    expect(restoreFee).toEqual({ amount: 80, currency: 'USD' });

    // Released: gone from the list, and available to anyone in search.
    await service.advance(30 * DAY_S);
    await openListSignedIn();
    await expect(page.getByText('Sign in to see your domains')).toBeHidden(slow);
    await expect(domains.link(domain)).toHaveCount(0);
    const search = searchPage(page);
    await nav.getByRole('link', { name: 'Search' }).click();
    await search.search(domain);
    await expect(search.exact.getByRole('listitem', { name: domain })).toContainText('Available', slow);
    expect(await service.dig(domain, 'TXT')).toEqual([]);
  });

  test('auto-renew: on its day the service renews from credit, the order says who placed it, the list shows the new date', async ({ page, wallet }) => {
    const kept = `kept-${Date.now().toString(36)}.com`;
    await service.register(TEST_KEYS.alice, kept, []);
    await service.signed(TEST_KEYS.alice, 'setAutoRenew', { normalizedDomainName: kept, enabled: true, durationInYears: 1 });
    const expiresAt = (await service.call('getRenewalQuote', { query: { normalizedDomainName: kept } })).expiresAt;
    const renewed = new Date(expiresAt);
    renewed.setUTCFullYear(renewed.getUTCFullYear() + 1);

    // A day into the last 30 days (AUTO_RENEW_DAYS): the worker, woken by the clock, renews it for a year.
    await service.advance((365 - 29) * DAY_S);
    await expect
      .poll(async () => (await service.call('getRenewalQuote', { query: { normalizedDomainName: kept } })).expiresAt, { timeout: 30_000 })
      .toBe(renewed.toISOString());

    await useService(page, service.apiUrl);
    await page.goto('/orders');
    await signIn(page, wallet);
    const order = page.getByRole('list', { name: 'Orders' }).getByRole('listitem').filter({ hasText: `${kept} · renewal, 1 year` });
    await expect(order.getByText('Succeeded').first()).toBeVisible({ timeout: 30_000 });
    await order.getByRole('link', { name: /^Order of / }).click();
    await expect(page.getByText(`${kept}: renewal, 1 year · Placed by auto-renew, paid from the owner\u2019s credit`)).toBeVisible({ timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
    await expect(domainsPage(page).table.getByRole('row').filter({ hasText: kept })).toContainText(renewed.toISOString().slice(0, 10), { timeout: 30_000 });
  });

  test('on a phone, renewed in redemption: the restore fee said before the wallet opens, then the records answer again', async ({ page, wallet }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const back = `back-${Date.now().toString(36)}.com`;
    await service.register(TEST_KEYS.alice, back, [{ name: 'www', type: 'A', rdata: '192.0.2.50', ttl: 300 }]);
    await service.advance((366 + 30) * DAY_S);
    expect(await service.dig(`www.${back}`, 'A')).toEqual([]);

    await useService(page, service.apiUrl);
    await page.goto(`/domains/${back}`);
    await signIn(page, wallet);
    await expect(page.getByRole('region', { name: 'Expiry' })).toContainText(/in redemption until \d{4}-\d{2}-\d{2}/, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Renew', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Renew ${back}` });
    const signatures = () => wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length;
    const before = signatures();
    await expect(dialog.getByRole('status')).toContainText('for $92.50 (1 year at $12.50 a year, plus the $80.00 restore fee that brings its records back)');
    expect(signatures(), 'nothing signed before the fee is said').toBe(before);
    await expect(dialog.getByRole('button', { name: 'Sign and renew' })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'no sideways scrolling').toBeLessThanOrEqual(0);
    await dialog.getByRole('button', { name: 'Sign and renew' }).click();
    await expect(dialog).toBeHidden({ timeout: 60_000 });
    expect(signatures()).toBe(before + 1);
    // The order finishes, the domain is restored: its own records answer again and the page says it is live.
    await expect.poll(() => service.dig(`www.${back}`, 'A'), { timeout: 30_000 }).toEqual(['192.0.2.50']);
    await expect(page.getByRole('region', { name: 'Expiry' })).toBeHidden({ timeout: 30_000 });
  });
});
