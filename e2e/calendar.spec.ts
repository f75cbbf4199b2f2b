import { readFile } from 'node:fs/promises';
import { generatePrivateKey } from 'viem/accounts';
import { parseIcs, prop, type IcsComponent } from '../test/support/ics-parse.ts';
import { test, expect } from './support/fixtures.ts';
import { resumeSession } from './support/pages.ts';
import { call, ownDomain, siweSignIn, withToken } from './support/service-client.ts';
import { bulkPanel } from './pages/bulk.ts';
import { domainPage } from './pages/domain.ts';
import { domainsPage } from './pages/domains.ts';

const owner = generatePrivateKey();
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const [soon, month, later] = ['soon', 'month', 'later'].map((x) => `cal-${x}-${run}.com`);
const DAY = 86_400_000;
const icsTime = (iso: string) => new Date(iso).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
const events = (calendar: IcsComponent) => calendar.children.filter((c) => c.name === 'VEVENT');
const signatures = (requests: string[]) => requests.filter((m) => m === 'eth_signTypedData_v4').length;

test.describe('reminders a person keeps', () => {
  test.use({ walletKeys: [owner] });
  test.describe.configure({ timeout: 120_000 });

  test.beforeAll(async () => {
    for (const name of [soon, month, later]) await ownDomain(owner, name);
  });

  test("a domain's calendar file: its expiry with alarms 30, 7 and 1 days before", async ({ page, wallet }) => {
    const [mine] = (await call('getUserDomains', {}, withToken(await siweSignIn(owner)))).filter((d) => d.normalizedDomainName === soon);
    await resumeSession(page, wallet);
    await page.goto(`/domains/${soon}`);
    const overview = domainPage(page);
    // The wallet's list answers once the session is back after the page load: slow on two shared cores.
    await expect(overview.fact('Expires')).toContainText(mine.expirationDate.slice(0, 10), { timeout: 30_000 });

    const download = page.waitForEvent('download');
    await overview.overview.getByRole('button', { name: 'Add expiry to calendar (.ics)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${soon}-expiry.ics`);
    const text = await readFile((await file.path())!, 'utf8');
    // parseIcs refuses a line without CRLF or longer than 75 octets.
    const { calendar } = parseIcs(text);
    const [event] = events(calendar);
    expect(events(calendar)).toHaveLength(1);
    expect(prop(event, 'SUMMARY')).toBe(`${soon} expires`);
    expect(prop(event, 'DTSTART')).toBe(icsTime(mine.expirationDate));
    expect(prop(event, 'URL')).toMatch(new RegExp(`/domains/${soon.replace(/\./g, '\\.')}$`));
    const alarms = event.children.filter((c) => c.name === 'VALARM');
    expect(alarms.map((a) => prop(a, 'TRIGGER'))).toEqual(['-P30D', '-P7D', '-P1D']);
    expect(alarms.map((a) => prop(a, 'ACTION'))).toEqual(['DISPLAY', 'DISPLAY', 'DISPLAY']);
  });

  test('the Domains list filters by "expires within", keeps it over a reload, acts on the filtered set, and gives every expiry as one calendar', async ({ page, wallet }) => {
    // Every domain here was registered today for a year. Until the test clock can age them, the list's answer is
    // rewritten on its way to the page: two expire within 30 days (one within 7), the third keeps its year.
    const moved: Record<string, number> = { [soon]: 3, [month]: 20 };
    await page.route('**/user/domains', async (route) => {
      const response = await route.fetch();
      const domains = (await response.json()) as Array<{ normalizedDomainName: string; expirationDate: string }>;
      for (const d of domains) if (moved[d.normalizedDomainName] !== undefined) d.expirationDate = new Date(Date.now() + moved[d.normalizedDomainName] * DAY + 3_600_000).toISOString();
      await route.fulfill({ response, json: domains });
    });
    await resumeSession(page, wallet);
    const list = domainsPage(page);
    const bulk = bulkPanel(page);
    await list.open();
    await expect(list.table.getByRole('row')).toHaveCount(4);
    const expires = page.getByRole('combobox', { name: 'Expires' });

    await expires.selectOption('7');
    await expect(list.table.getByRole('row')).toHaveCount(2);
    await expect(list.link(soon)).toBeVisible();
    await expect(page).toHaveURL(/[?&]expires=7(&|$)/);

    await expires.selectOption('30');
    await list.table.getByRole('button', { name: 'Expires' }).click();
    await list.table.getByRole('button', { name: 'Expires' }).click();
    await expect(page).toHaveURL(/expires=30/);
    await expect(page).toHaveURL(/sort=expiry&dir=desc/);
    // The address keeps the window and the order: a reload shows the same two, latest first.
    await page.reload();
    await expect(expires).toHaveValue('30');
    await expect(list.table.getByRole('row')).toHaveCount(3);
    await expect(list.table.getByRole('row').nth(1)).toContainText(month);
    await expect(list.table.getByRole('row').nth(2)).toContainText(soon);
    await expect(list.table.getByRole('columnheader', { name: 'Expires' })).toHaveAttribute('aria-sort', 'descending');

    // A bulk action on what the filter shows: one TXT record in each of the two, one signature each.
    await page.getByRole('button', { name: 'Select all 2 that match' }).click();
    await expect(bulk.listStatus).toContainText('2 of 3 domains, 2 selected');
    await bulk.action.selectOption('record');
    await page.getByRole('textbox', { name: 'Value', exact: true }).fill(`"renew-${run}"`);
    await bulk.review.click();
    await expect(bulk.plan.getByRole('listitem').filter({ hasText: soon }).first()).toBeVisible();
    await expect(bulk.plan.getByRole('listitem').filter({ hasText: month }).first()).toBeVisible();
    await expect(bulk.plan).not.toContainText(later);
    const before = signatures(wallet.requests);
    await bulk.sign.click();
    await expect(bulk.runStatus).toContainText('2 of 2 applied');
    expect(signatures(wallet.requests) - before).toBe(2);
    const txt = async (zoneName: string) => (await call('getDnsRecords', { query: { zoneName } })).filter((r) => r.type === 'TXT' && r.rdata.includes(`renew-${run}`));
    expect(await txt(soon)).toHaveLength(1);
    expect(await txt(month)).toHaveLength(1);
    expect(await txt(later)).toHaveLength(0);

    // The whole wallet's calendar: every domain, whatever the filter, each with its three alarms.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Expiry calendar (.ics)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('domain-expiries.ics');
    const { calendar } = parseIcs(await readFile((await file.path())!, 'utf8'));
    expect(events(calendar).map((e) => prop(e, 'SUMMARY'))).toEqual([`${soon} expires`, `${month} expires`, `${later} expires`]);
    for (const event of events(calendar)) expect(event.children.map((a) => prop(a, 'TRIGGER'))).toEqual(['-P30D', '-P7D', '-P1D']);

    // "Any time" brings the rest back and leaves the address clean of the window.
    await expires.selectOption('any');
    await expect(list.table.getByRole('row')).toHaveCount(4);
    await expect(page).not.toHaveURL(/expires=/);
  });
});
