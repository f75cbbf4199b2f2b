import { test, expect } from './support/fixtures.ts';
import { TEST_KEYS } from './support/keys.ts';
import { resumeSession } from './support/pages.ts';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { call, ownDomain, signedCall } from './support/service-client.ts';
import { recordsPage, typedSignatures } from './pages/records.ts';

const domain = `tags-${Date.now().toString(36)}.com`;
const zoneRecords = () => call('getDnsRecords', { query: { zoneName: domain } });

/**
 * Comments and tags on records, and the ENS name (issue 36): tag three records together and change them together,
 * each in one signature; filter `tag:prod`; edit a comment in the form, said before the wallet opens; then write the
 * ENSIP-17 record from the DNSSEC tab.
 */
test.describe('Record tags and the ENS name', () => {
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async () => {
    await ownDomain(TEST_KEYS.alice, domain);
    await signedCall(TEST_KEYS.alice, 'batchCreateDnsRecords', {
      zoneName: domain,
      records: [
        { name: 'web1', type: 'A', rdata: '192.0.2.1', ttl: 3600 },
        { name: 'web2', type: 'A', rdata: '192.0.2.2', ttl: 3600 },
        { name: 'web3', type: 'A', rdata: '192.0.2.3', ttl: 3600 },
        { name: 'mail', type: 'TXT', rdata: '"v=spf1 -all"', ttl: 3600 },
      ],
    });
  });

  test('tag three records and change their TTL together, one signature each; filter tag:prod; comment one; set the ENS record', async ({ page, wallet }) => {
    const records = recordsPage(page);
    const bulk = page.getByRole('group', { name: 'Selected records' });
    await resumeSession(page, wallet, `/domains/${domain}`);
    await expect(page.getByRole('heading', { name: 'DNS records' })).toBeVisible({ timeout: 30_000 });

    // Select the three web records and tag them together: one change set, its words, one signature.
    await records.search.fill('web');
    await bulk.getByRole('button', { name: 'Select all 3 shown' }).click();
    await expect(bulk.getByRole('status')).toHaveText('3 records selected');
    await bulk.getByRole('textbox', { name: 'Tag' }).fill('prod');
    await bulk.getByRole('button', { name: 'Add tag' }).click();
    await expect(records.dialog.getByRole('note')).toContainText(`Change 3 records in ${domain}:`);
    await expect(records.dialog.getByRole('note')).toContainText(`A web1.${domain} → 192.0.2.1, TTL 1 h, no comment, tags prod`);
    const beforeTags = typedSignatures(wallet.requests);
    await records.signChangeSet(1);
    expect(typedSignatures(wallet.requests)).toBe(beforeTags + 1);
    await expect.poll(async () => (await zoneRecords()).filter((r) => r.tags?.includes('prod')).map((r) => r.name).sort()).toEqual(['web1', 'web2', 'web3']);

    // tag:prod keeps exactly those; the table shows the tag.
    await records.search.fill('tag:prod');
    await expect(records.row('A', 'web1')).toContainText('prod');
    await expect(records.row('A', 'web3')).toBeVisible();
    await expect(records.row('TXT', 'mail')).toBeHidden();

    // All of them at once to a 5-minute TTL: one signature again, said first.
    await bulk.getByRole('button', { name: 'Select all 3 shown' }).click();
    await bulk.getByRole('combobox', { name: 'New TTL' }).selectOption('300');
    await bulk.getByRole('button', { name: 'Set TTL to 5 min' }).click();
    await expect(records.dialog.getByRole('note')).toContainText(`A web2.${domain} → 192.0.2.2, TTL 5 min, no comment, tags prod`);
    const beforeTtl = typedSignatures(wallet.requests);
    await records.signChangeSet(1);
    expect(typedSignatures(wallet.requests)).toBe(beforeTtl + 1);
    await expect.poll(async () => (await zoneRecords()).filter((r) => r.name.startsWith('web')).map((r) => [r.ttl, r.tags])).toEqual([
      [300, ['prod']],
      [300, ['prod']],
      [300, ['prod']],
    ]);

    // A comment in the form: refused at its field past 500 characters, then said before the wallet opens.
    const form = await records.edit('A', 'web1');
    const comment = form.getByRole('textbox', { name: 'Comment' });
    await comment.fill('x'.repeat(501));
    await form.getByRole('button', { name: 'Save and sign' }).click();
    await expect(comment).toHaveAccessibleDescription(/A comment is at most 500 characters; this one has 501/);
    await comment.fill('Front door');
    await expect(form.getByRole('note')).toContainText('Comment changed to “Front door”');
    await form.getByRole('button', { name: 'Save and sign' }).click();
    await expect(form).toBeHidden();
    await expect(records.row('A', 'web1')).toContainText('Front door');
    await records.search.fill('front door');
    await expect(records.row('A', 'web1')).toBeVisible();
    await expect(records.row('A', 'web2')).toBeHidden();

    // The ENS name: the DNSSEC tab's panel, the record written as an ordinary signed change.
    await page.getByRole('tab', { name: 'DNSSEC' }).click();
    const ens = page.getByRole('region', { name: `Use ${domain} as an ENS name` });
    await expect(ens.getByTestId('ens-step-record')).toContainText('To do');
    await expect(ens.getByTestId('ens-step-ds')).toContainText('Not known here');
    await expect(ens.getByRole('textbox', { name: 'ENS resolver' })).toHaveValue('dnsname.ens.eth');
    await expect(ens.getByRole('textbox', { name: 'Owner address' })).toHaveValue(wallet.address);
    await expect(ens.getByRole('note')).toContainText(`Add one record in ${domain}: TXT at ${domain} "ENS1 dnsname.ens.eth ${wallet.address}"`);
    const beforeEns = typedSignatures(wallet.requests);
    await ens.getByRole('button', { name: 'Set the ENS record' }).click();
    await expect(ens.getByTestId('ens-step-record')).toContainText(`Present: ENS1 dnsname.ens.eth ${wallet.address}`);
    expect(typedSignatures(wallet.requests)).toBe(beforeEns + 1);
    const apex = (await zoneRecords()).find((r) => r.name === '@' && r.type === 'TXT');
    expect(apex?.rdata).toBe(`"ENS1 dnsname.ens.eth ${wallet.address}"`);
    await expect(ens.getByRole('button', { name: 'ENS record set' })).toBeDisabled();
    await expectNoSeriousA11yViolations(page);
  });
});
