import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { call, ownDomain, registerDomain, signedCall, siweSignIn, waitForOrder } from './support/service-client.ts';
import { resumeSession } from './support/pages.ts';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { domainsPage } from './pages/domains.ts';
import { bulkPanel } from './pages/bulk.ts';

const owner = generatePrivateKey();
const run = Date.now().toString(36);
const [a, b, c] = ['a', 'b', 'c'].map((x) => `bulk-${x}-${run}.com`);
const [d, e] = ['d', 'e'].map((x) => `sec-${x}-${run}.com`);
const mxOf = (domain: string) => `0 ${domain.replace(/\./g, '-')}.mail.protection.outlook.com.`;
const signatures = (requests: string[]) => requests.filter((m) => m === 'eth_signTypedData_v4').length;

test.describe('bulk changes', () => {
  test.use({ walletKeys: [owner] });

  test.beforeAll(async () => {
    await ownDomain(owner, a);
    await ownDomain(owner, b);
    await ownDomain(owner, d);
    await ownDomain(owner, e);
    // e is signed already: the plan says so and asks no signature for it.
    await signedCall(owner, 'toggleDnssec', { normalizedDomainName: e, enabled: true });
    // c already has a record at autodiscover, where Microsoft 365 puts its CNAME: a conflict the zone rules refuse.
    const token = await siweSignIn(owner);
    const order = await registerDomain(owner, c, { records: [{ name: 'autodiscover', type: 'A', rdata: '192.0.2.1', ttl: 3600 }] });
    expect((await waitForOrder(token, order.id)).order.status).toBe('SUCCEEDED');
  });

  test('a mail template on three domains: plan, one signature each with progress, a reload mid-way, a conflict fixed and retried', async ({ page, wallet }) => {
    await resumeSession(page, wallet);
    const list = domainsPage(page);
    const bulk = bulkPanel(page);
    await list.open();
    await list.filter.fill('bulk-');

    // Select three with a click and a shift-click, once the filtered list is shown. Right after the page loaded, one
    // run of the journeys lost the first click (1 selected, not 3); the person would see the box empty and click again.
    await expect(bulk.listStatus).toContainText('3 of 5 domains');
    await expect(async () => bulk.rowBox(a).check()).toPass();
    await bulk.rowBox(c).click({ modifiers: ['Shift'] });
    await expect(bulk.listStatus).toContainText('3 selected');
    await expect(bulk.rowBox(b)).toBeChecked();
    // The same three again through "select all that match" after clearing.
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await expect(bulk.rowBox(a)).not.toBeChecked();
    await page.getByRole('button', { name: 'Select all 3 that match' }).click();
    await expect(bulk.listStatus).toContainText('3 selected');

    await bulk.action.selectOption('template');
    await bulk.template.selectOption('microsoft-365');
    await bulk.review.click();

    // The plan per domain as a diff, with c's conflict found by the same zone rules as the service's.
    await expect(bulk.planFor(a)).toContainText(`+ @ MX ${mxOf(a)}`);
    await expect(bulk.planFor(b)).toContainText('+ autodiscover CNAME autodiscover.outlook.com.');
    await expect(bulk.planFor(c)).toContainText(/Conflict: .*autodiscover/);
    // What each signature is for, before the wallet opens: the two domains without a conflict.
    await expect(page.getByRole('note')).toContainText(`Create 3 records in ${a} (CreateRecords)`);
    await expect(page.getByRole('note')).not.toContainText(c);
    await expectNoSeriousA11yViolations(page);
    const before = signatures(wallet.requests);

    // The second signature waits in the wallet; the page is reloaded meanwhile.
    const held = wallet.holdNext('eth_signTypedData_v4', { after: 1 });
    await bulk.sign.click();
    await expect(bulk.resultFor(a)).toContainText('Applied');
    await expect(bulk.progress).toHaveAttribute('aria-valuenow', '1');
    await held.reached;
    await page.reload();
    held.release();

    // After the reload: what landed is known, what remains is offered.
    await expect(bulk.runStatus).toContainText('1 of 3 applied, 2 not yet signed');
    await expect(bulk.resultFor(a)).toContainText('Applied');
    await bulk.continue.click();
    await expect(bulk.runStatus).toContainText('2 of 3 applied, 1 failed');
    await expect(bulk.resultFor(c)).toContainText(/Failed.*autodiscover/s);
    await expect(bulk.progress).toHaveAttribute('aria-valuenow', '3');
    // a once, b twice (the request abandoned by the reload, then again), c not at all: it was refused before signing.
    expect(signatures(wallet.requests)).toBe(before + 3);

    // Fix the conflict (the old record goes), then retry the failed one: one more signature.
    const records = await call('getDnsRecords', { query: { zoneName: c } });
    const old = records.find((r) => r.name === 'autodiscover' && r.type === 'A')!;
    await signedCall(owner, 'deleteDnsRecord', { id: old.id, zoneName: c });
    await bulk.retryFailed.click();
    await expect(bulk.runStatus).toContainText('3 of 3 applied');
    await expect(bulk.resultFor(c)).toContainText('Applied');
    expect(signatures(wallet.requests)).toBe(before + 4);
    await expectNoSeriousA11yViolations(page);

    // Nothing applied twice: each zone holds the template's MX once.
    for (const domain of [a, b, c]) {
      const zone = await call('getDnsRecords', { query: { zoneName: domain } });
      expect(zone.filter((r) => r.type === 'MX').map((r) => r.rdata), domain).toEqual([mxOf(domain)]);
    }
  });

  test('DNSSEC on for two domains: one already signed needs no signature, and the "DNSSEC on" filter then shows both', async ({ page, wallet }) => {
    await resumeSession(page, wallet);
    const list = domainsPage(page);
    const bulk = bulkPanel(page);
    await list.open();
    await list.filter.fill('sec-');
    await page.getByRole('button', { name: 'Select all 2 that match' }).click();

    await bulk.action.selectOption('dnssec');
    await page.getByRole('combobox', { name: 'DNSSEC' }).selectOption('on');
    await bulk.review.click();
    await expect(bulk.planFor(d)).toContainText('+ @ DNSKEY, CDS, CDNSKEY');
    await expect(bulk.planFor(e)).toContainText('already so, nothing to sign');
    await expect(page.getByRole('note')).toContainText(`Turn DNSSEC on for ${d} (ToggleDnssec)`);
    await expect(page.getByRole('note')).not.toContainText(e);

    const before = signatures(wallet.requests);
    await bulk.sign.click();
    await expect(bulk.runStatus).toContainText('2 of 2 applied');
    expect(signatures(wallet.requests)).toBe(before + 1);
    expect((await call('getDnssec', { query: { normalizedDomainName: d } })).enabled).toBe(true);

    // The list now says which zones are signed: the filter is offered, and both pass it.
    await page.getByRole('combobox', { name: 'Show' }).selectOption('dnssec');
    await expect(bulk.rowBox(d)).toBeVisible();
    await expect(bulk.rowBox(e)).toBeVisible();
  });
});
