import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { resumeSession } from './support/pages.ts';
import { ownDomain, signedCall } from './support/service-client.ts';
import { domainPage } from './pages/domain.ts';
import { recordsPage } from './pages/records.ts';

const owner = generatePrivateKey();
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const domain = `life-${run}.com`;

/** The page is at its top: nothing was scrolled to bring what follows into view. */
async function expectAtTop(page: import('@playwright/test').Page) {
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
}

test.describe("the domain page: an overview of the domain's life, then one tab per concern", () => {
  test.use({ walletKeys: [owner] });
  // Signing in and loading the page on two shared cores takes longer than the default minute.
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async () => {
    await ownDomain(owner, domain);
    // Its own records, so the apex answers an address of the owner's and the table has rows of its own.
    await signedCall(owner, 'toggleDomainParking', { normalizedDomainName: domain, enableParking: false, overrideExistingRecords: false });
    await signedCall(owner, 'batchCreateDnsRecords', {
      zoneName: domain,
      records: [
        { name: '@', type: 'A', rdata: '192.0.2.80', ttl: 3600 },
        { name: 'www', type: 'CNAME', rdata: `${domain}.`, ttl: 3600 },
        { name: '@', type: 'MX', rdata: `10 mail.${domain}.`, ttl: 3600 },
      ],
    });
  });

  test.describe('at 1280×800', () => {
    test.use({ viewport: { width: 1280, height: 800 } });

    test('answers "is it mine, until when, is it working" at the top, with the records table on the first screen', async ({ page, wallet }) => {
      await resumeSession(page, wallet);
      const records = recordsPage(page);
      const life = domainPage(page);
      await records.open(domain);

      await expect(life.fact('Owner')).toHaveText(/^You \(0x[0-9a-fA-F]{2}…[0-9a-fA-F]{4}\)$/);
      await expect(life.fact('Expires')).toHaveText(/^\d{4}-\d{2}-\d{2} \(in 36[45] days\)$/);
      await expect(life.fact('Auto-renew')).toHaveText('Off');
      await expect(life.fact('Domain answers')).toHaveText('Answers 192.0.2.80');
      await expect(life.fact('Parking / forwarding')).toHaveText('Neither');
      await expect(life.fact('DNSSEC')).toHaveText('Not signed');
      await expect(life.fact('Name servers')).not.toHaveText(/Checking|None|Could not/);

      // Records first, and its table with its first rows in view without scrolling.
      await expect(life.tab('Records')).toHaveAttribute('aria-selected', 'true');
      await expect(records.rowWith('192.0.2.80')).toBeVisible();
      await expectAtTop(page);
      await expect(records.table).toBeInViewport();
      await expect(records.table.getByRole('row').nth(1)).toBeInViewport({ ratio: 1 });
      await expect(records.table.getByRole('row').nth(3)).toBeInViewport({ ratio: 1 });

      // Each concern in its tab, named in the address; a reload comes back to it.
      await life.show('Forwarding and parking');
      await expect(page).toHaveURL(/[?&]tab=forwarding/);
      await expect(page.getByRole('region', { name: 'Forwarding' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Parking' })).toBeVisible();
      await life.show('DNSSEC');
      await expect(page.getByRole('region', { name: 'DNSSEC' })).toBeVisible();
      await page.reload();
      await expect(life.tab('DNSSEC')).toHaveAttribute('aria-selected', 'true');
      await life.show('Renewal');
      await expect(page.getByRole('region', { name: 'Auto-renew' })).toBeVisible();
      await life.show('History');
      await expect(page).toHaveURL(/[?&]tab=history/);
      await expectNoSeriousA11yViolations(page);
      await records.show();
      await expect(page).not.toHaveURL(/tab=/);
    });
  });

  test.describe('on a phone (390×844)', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('the overview stays compact: the first record cards are on the first screen', async ({ page, wallet }) => {
      await resumeSession(page, wallet);
      const records = recordsPage(page);
      const life = domainPage(page);
      await records.open(domain);
      await expect(life.fact('Domain answers')).toHaveText('Answers 192.0.2.80');
      const cards = page.getByRole('list', { name: /^DNS records, \d+ shown of \d+$/ });
      await expect(cards.getByRole('article').first()).toBeVisible();
      await expectAtTop(page);
      await expect(cards).toBeInViewport();
      // The list starts on the first screen, and at least half of its first card with it.
      await expect(cards.getByRole('article').first()).toBeInViewport({ ratio: 0.5 });
      // The tabs scroll sideways inside their own strip; the page itself never does.
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      await life.show('History');
      await expect(life.tab('History')).toBeInViewport();
      await expectNoSeriousA11yViolations(page);
    });
  });
});
