import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test, expect } from './support/fixtures.ts';
import { TEST_KEYS } from './support/keys.ts';
import { resumeSession } from './support/pages.ts';
import { recordsPage } from './pages/records.ts';
import { ownDomain } from './support/service-client.ts';

/** Asks the local service's DNS port, as a resolver would; answers dig's status word (NOERROR, NXDOMAIN). */
const dig = async (name: string, type: string) => {
  const { stdout } = await promisify(execFile)('/usr/bin/dig', ['@127.0.0.1', '-p', process.env.E2E_DNS_PORT!, '+norec', name, type], { encoding: 'utf8' });
  return /status: ([A-Z]+)/.exec(stdout)?.[1];
};

const domain = `seen-${Date.now().toString(36)}.com`;

test.describe('Query analytics', () => {
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async () => {
    await ownDomain(TEST_KEYS.alice, domain);
  });

  test('a record and a misspelt name queried with dig show in the chart and the table, with a finding that adds the missing record; the Mail tab\u2019s DMARC fix signed from the change set', async ({ page, wallet }) => {
    const records = recordsPage(page);
    await resumeSession(page, wallet);
    await records.open(domain);
    await records.addAndSign('A', 'mail', { 'IPv4 address': '192.0.2.25' });

    for (let i = 0; i < 3; i += 1) expect(await dig(`mail.${domain}`, 'A')).toBe('NOERROR');
    for (let i = 0; i < 2; i += 1) expect(await dig(`mial.${domain}`, 'A')).toBe('NXDOMAIN');

    await page.getByRole('tab', { name: 'Analytics' }).click();
    const panel = page.getByRole('region', { name: 'Analytics' });
    // dig's 5, and the overview's own questions about the apex (whether it answers, its name servers), which the name
    // server answered too; the exact counts per query are the service test's (server/analytics/analytics.test.ts).
    const headline = panel.getByText(/^\d+ queries answered by the name server, per hour \(UTC\)\.$/);
    await expect(headline).toBeVisible();
    const total = Number((await headline.textContent())!.split(' ')[0]);
    expect(total).toBeGreaterThanOrEqual(5);
    await expect(panel.getByTestId('analytics-chart')).toBeVisible();
    // The most asked names, with their answers.
    const names = panel.getByRole('table', { name: 'Most asked names' });
    await expect(names.getByRole('row').filter({ hasText: `mail.${domain}` })).toContainText(/A\s*NOERROR\s*3/);
    await expect(names.getByRole('row').filter({ hasText: `mial.${domain}` })).toContainText(/A\s*NXDOMAIN\s*2/);

    // Stacked by answer, as a table: the same numbers for a screen reader.
    await panel.getByRole('combobox', { name: 'Stack by' }).selectOption('rcode');
    await panel.getByRole('button', { name: 'Show as table' }).click();
    const table = panel.getByRole('table', { name: 'Queries per hour by answer' });
    await expect(table.getByRole('columnheader')).toHaveText(['Time (UTC)', 'NOERROR', 'NXDOMAIN', 'Total']);
    await expect(table.getByRole('row').nth(1)).toContainText(new RegExp(`${total - 2}\\s*2\\s*${total}$`));

    // The finding in words, and the record it asks for added from it.
    await expect(panel.getByText(`People ask for mial.${domain}, which has no record (2 queries answered NXDOMAIN): a typo somewhere, or a missing record?`)).toBeVisible();
    await panel.getByRole('button', { name: `Add a record for mial.${domain}` }).click();
    await expect(records.dialog).toBeVisible();
    await expect(records.dialog.getByRole('combobox', { name: 'Type', exact: true })).toHaveValue('A');
    await expect(records.dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('mial');
    await records.dialog.getByLabel('IPv4 address', { exact: true }).fill('192.0.2.25');
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog).toBeHidden();
    await expect(records.row('A', 'mial')).toBeVisible();
    expect(await dig(`mial.${domain}`, 'A')).toBe('NOERROR');

    // The Mail tab: no DMARC record is a problem with its fix, which goes into the change set and is signed there.
    await page.getByRole('tab', { name: 'Mail' }).click();
    const mail = page.getByRole('region', { name: 'Mail authentication' });
    await expect(mail.getByText(/There is no DMARC record at _dmarc/)).toBeVisible();
    await mail.getByRole('button', { name: `Put the TXT record at _dmarc.${domain} in the change set` }).click();
    await expect(records.changeSet).toBeVisible();
    await records.reviewChangeSet();
    await records.signChangeSet(1);
    await expect(records.rowWith(`v=DMARC1; p=none; rua=mailto:dmarc@${domain}`)).toBeVisible();
    await page.getByRole('tab', { name: 'Mail' }).click();
    await expect(mail.getByText(/The DMARC policy is p=none/)).toBeVisible();
    await expect(mail.getByText(/There is no DMARC record/)).toBeHidden();

    // The Domains list gives the week at a glance: a line a domain, with its words (today holds all of them).
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
    const row = page.getByRole('table', { name: 'Your domains' }).getByRole('row').filter({ hasText: domain });
    await expect(row.getByRole('img', { name: /^[\d,]+ queries in 7 days, [\d,]+ queries today$/ })).toBeVisible();
    const week = (await row.getByRole('img').getAttribute('aria-label'))!.match(/^([\d,]+) queries in 7 days, ([\d,]+)/)!;
    expect(Number(week[1].replace(/,/g, ''))).toBeGreaterThanOrEqual(total + 1);
    expect(week[2]).toBe(week[1]);
  });
});
