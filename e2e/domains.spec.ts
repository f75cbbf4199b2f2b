import { test, expect } from './support/fixtures.ts';
import { generatePrivateKey } from 'viem/accounts';
import { resumeSession } from './support/pages.ts';
import { ownDomain, signedCall } from './support/service-client.ts';
import { domainsPage } from './pages/domains.ts';

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test.describe('my domains', () => {
  // Fresh keys: the list holds exactly what this file registers, whatever other journeys do.
  const owner = generatePrivateKey();
  test.use({ walletKeys: [owner, generatePrivateKey()] });

  test('lists owned domains with parking, records and NFT; filters, sorts and opens one', async ({ page, wallet }) => {
    const id = stamp();
    const parked = `alpha-${id}.com`;
    const hosted = `beta-${id}.io`;
    await ownDomain(owner, parked);
    await ownDomain(owner, hosted);
    await signedCall(owner, 'toggleDomainParking', { normalizedDomainName: hosted, enableParking: false, overrideExistingRecords: false });
    await signedCall(owner, 'batchCreateDnsRecords', {
      zoneName: hosted,
      records: [
        { name: '@', type: 'A', rdata: '192.0.2.10', ttl: 3600 },
        { name: '@', type: 'MX', rdata: `10 mail.${hosted}.`, ttl: 3600 },
      ],
    });

    const domains = domainsPage(page);
    await resumeSession(page, wallet);
    await domains.open();
    await expect(domains.table).toBeVisible();

    const parkedRow = domains.table.getByRole('row').filter({ has: domains.link(parked) });
    const hostedRow = domains.table.getByRole('row').filter({ has: domains.link(hosted) });
    await expect(parkedRow).toContainText('Parked');
    await expect(parkedRow).toContainText('No mail');
    await expect(hostedRow).not.toContainText('Parked');
    await expect(hostedRow).toContainText('Web');
    await expect(hostedRow).toContainText('Mail');
    await expect(hostedRow).toContainText('Local chain');
    await expect(hostedRow.getByRole('button', { name: /^Copy token id \d+$/ })).toBeVisible();

    // Sort by name, both ways.
    await domains.table.getByRole('button', { name: 'Domain' }).click();
    await expect(domains.table.getByRole('columnheader', { name: 'Domain' })).toHaveAttribute('aria-sort', 'descending');
    await expect(domains.table.getByRole('row').nth(1)).toContainText(hosted);

    await domains.show.selectOption('parked');
    await expect(domains.table.getByRole('row')).toHaveCount(2);
    await expect(parkedRow).toBeVisible();
    await domains.show.selectOption('all');
    await domains.filter.fill('beta');
    await expect(domains.table.getByRole('row')).toHaveCount(2);
    await expect(hostedRow).toBeVisible();

    // A click anywhere on the row but its own controls opens it (the first cell holds the selection box).
    await hostedRow.getByRole('cell').nth(1).click();
    await expect(page).toHaveURL(new RegExp(`/domains/${hosted.replace('.', '\\.')}$`));
    await expect(page.getByRole('heading', { name: 'DNS records' })).toBeVisible();
  });

  test('a wallet without domains is led to search', async ({ page, wallet }) => {
    await wallet.switchAccount(1);
    await resumeSession(page, wallet);
    await page.goto('/domains');
    await expect(page.getByText('No domains yet')).toBeVisible();
    await page.getByRole('link', { name: 'Search for a domain' }).click();
    await expect(page).toHaveURL(/\/search$/);
  });
});
