import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { ownDomain, registerDomain, signedCall, siweSignIn, waitForOrder, faucet } from './support/service-client.ts';
import { resumeSession } from './support/pages.ts';
import { recordsPage } from './pages/records.ts';
import { parkingPanel } from './pages/parking.ts';
import { dnssecPanel } from './pages/dnssec.ts';
import { domainPage } from './pages/domain.ts';
import { domainsPage } from './pages/domains.ts';
import { bulkPanel } from './pages/bulk.ts';

/**
 * The page never states what has stopped being true: a "now" check asks DNS now (never the browser's HTTP cache),
 * and what a write changed is shown at once wherever it is shown, on this page or the next.
 */
const owner = generatePrivateKey();
const run = Date.now().toString(36);
const live = `live-${run}.com`;
const parkMe = `park-me-${run}.com`;

test.describe('the dashboard never stale', () => {
  test.use({ walletKeys: [owner] });
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async () => {
    const token = await siweSignIn(owner);
    await faucet(token);
    // An apex address of the owner's, kept beside the parking records: DNS answers both while it is parked.
    const order = await registerDomain(owner, live, { records: [{ name: '@', type: 'A', rdata: '192.0.2.10', ttl: 300 }] });
    expect((await waitForOrder(token, order.id)).order.status).toBe('SUCCEEDED');
    await signedCall(owner, 'toggleDomainParking', { normalizedDomainName: live, enableParking: true, overrideExistingRecords: false });
    // Forwarded, not parked: what the overview says before the domain is parked from the list.
    await ownDomain(owner, parkMe);
    await signedCall(owner, 'toggleDomainParking', { normalizedDomainName: parkMe, enableParking: false, overrideExistingRecords: false });
    await signedCall(owner, 'setForwarding', { normalizedDomainName: parkMe, enabled: true, targetUrl: 'https://example.org/landing', statusCode: 301, keepPath: false });
  });

  test('turn parking off and DNSSEC on, then "Live?" at once says live and signed, and the overview answers the new address', async ({ page, wallet }) => {
    await resumeSession(page, wallet);
    const records = recordsPage(page);
    const overview = domainPage(page);
    await records.open(live);
    await expect(overview.fact('Domain answers')).toHaveText(/^Answers (192\.0\.2\.10|34\.123\.0\.161) and 1 more$/);
    // Asked once before: the same question is the same DoH URL each time, which a browser would keep for its TTL.
    const apex = records.row('A', '@');
    await apex.getByRole('button', { name: 'Is the A record @ live?' }).click();
    await expect(apex.getByRole('status')).toContainText('Live');
    await expect(apex.locator('[data-signed]')).toHaveAttribute('data-signed', 'false');

    const parking = parkingPanel(page);
    await parking.open();
    await parking.toggle.click();
    await parking.confirmUnpark.click();
    await expect(parking.dialog).toBeHidden();
    await expect(parking.state).toHaveText(/^Not parked/);
    const dnssec = dnssecPanel(page);
    await dnssec.open();
    await dnssec.toggle.click();
    await dnssec.confirmOn.click();
    await expect(dnssec.dialog).toBeHidden();
    await expect(dnssec.state).toHaveText(/^Signed/);

    // The overview asked DNS again when the zone changed: the parking address is gone.
    await expect(overview.fact('Domain answers')).toHaveText('Answers 192.0.2.10');
    await records.show();
    // One click, no retry: the answer is DNS's now, signed by the key just made.
    await apex.getByRole('button', { name: 'Is the A record @ live?' }).click();
    await expect(apex.locator('[data-signed]')).toHaveAttribute('data-signed', 'true');
    await expect(apex.getByRole('status')).toContainText(/^Live/);
  });

  test('park from My domains, then the overview says parked at once', async ({ page, wallet }) => {
    await resumeSession(page, wallet);
    const overview = domainPage(page);
    await page.goto(`/domains/${parkMe}`);
    await expect(overview.fact('Parking / forwarding')).toHaveText('Forwarding to https://example.org/landing');

    // Within the app (no reload): what the domain page read is still in the page's cache.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
    const list = domainsPage(page);
    const bulk = bulkPanel(page);
    await list.filter.fill(parkMe);
    await bulk.rowBox(parkMe).click();
    await bulk.action.selectOption('park');
    await bulk.review.click();
    await bulk.sign.click();
    await expect(bulk.resultFor(parkMe)).toContainText('Applied');

    await list.link(parkMe).click();
    await expect(overview.overview).toBeVisible();
    // Never the old state, not even for a moment: what the overview says from its first paint on.
    const said: string[] = [];
    await expect
      .poll(async () => {
        said.push((await overview.fact('Parking / forwarding').textContent()) ?? '');
        return said.at(-1);
      })
      .toBe('Parked');
    expect(said.filter((words) => words.startsWith('Forwarding'))).toEqual([]);
  });

  test('at 1280 px the header shows its every control, the theme switch whole inside the window', async ({ page, wallet }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await resumeSession(page, wallet, `/domains/${live}`);
    const banner = page.getByRole('banner');
    await expect(banner).toContainText('$');
    const toggle = banner.getByRole('button', { name: /^Switch to (dark|light) theme$/ });
    await expect(toggle).toBeVisible();
    // Whole: as wide as it is drawn, its icon inside it, the button inside the window.
    const [button, icon] = [(await toggle.boundingBox())!, (await toggle.locator('svg').boundingBox())!];
    expect(button.width).toBeGreaterThanOrEqual(40);
    expect(button.x + button.width).toBeLessThanOrEqual(1280);
    expect(icon.width).toBeGreaterThanOrEqual(16);
    expect(icon.x).toBeGreaterThan(button.x);
    expect(icon.x + icon.width).toBeLessThan(button.x + button.width);
    // For a person to look at (test-results): the header at 1280 x 800.
    await page.screenshot({ path: test.info().outputPath('header-1280.png'), clip: { x: 0, y: 0, width: 1280, height: 120 } });
  });
});
