import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { test, expect } from './support/fixtures.ts';
import { addressOf, TEST_KEYS } from './support/keys.ts';
import { resumeSession } from './support/pages.ts';
import { call, ownDomain, signedCall } from './support/service-client.ts';
import { recordsPage, typedSignatures } from './pages/records.ts';
import { watchTypesRequests } from './support/types-requests.ts';

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}.com`;
/** What the local service's DNS server answers, through dig, as `dig +short` prints it. */
const dig = async (name: string, type: string) => {
  const { stdout } = await promisify(execFile)('/usr/bin/dig', ['@127.0.0.1', '-p', process.env.E2E_DNS_PORT!, '+short', '+norec', name, type], { encoding: 'utf8' });
  return stdout.trim().split('\n').filter(Boolean);
};
const zoneRecords = (zoneName: string) => call('getDnsRecords', { query: { zoneName } });
/**
 * A session asks each operation's types once: the single-record writes as the records page opens, DNSSEC's,
 * forwarding's and auto-renew's as the page's overview asks what the service offers (their tabs reuse the answer),
 * the batches' once a change set is started; parking's when its dialog opens, or the record form on a parked zone.
 */
const ONCE_PER_SESSION = { createDnsRecord: 1, updateDnsRecord: 1, deleteDnsRecord: 1, toggleDnssec: 1, setForwarding: 1, setAutoRenew: 1 };
const WITH_A_CHANGE_SET = { ...ONCE_PER_SESSION, batchCreateDnsRecords: 1, batchUpdateDnsRecords: 1, batchDeleteDnsRecords: 1, applyDnsChanges: 1 };

test.describe('DNS records editor', () => {
  // Each journey signs several writes through the test wallet and waits for the service: on two shared
  // cores that takes longer than the default minute.
  test.describe.configure({ timeout: 180_000 });

  test('adds each everyday type with one signature each, edits one and deletes one', async ({ page, wallet }) => {
    const domain = unique('everyday');
    await ownDomain(TEST_KEYS.alice, domain);
    const records = recordsPage(page);
    const types = watchTypesRequests(page);
    await resumeSession(page, wallet);
    await records.open(domain);

    // A new domain is parked: its managed records are shown read-only, with the reason.
    await expect(records.rowWith('34.123.0.161')).toContainText('read-only');

    const before = typedSignatures(wallet.requests);
    await records.addAndSign('A', 'web', { 'IPv4 address': '192.0.2.10' });
    await records.addAndSign('AAAA', 'web', { 'IPv6 address': '2001:db8::10' });
    await records.addAndSign('CNAME', 'www', { 'Target host name': 'web.' + domain });
    await records.addAndSign('MX', '@', { Priority: '10', 'Mail server': 'mail.example.net' });
    await records.addAndSign('TXT', '@', { Text: 'v=spf1 include:_spf.example.net ~all' });
    await records.addAndSign('NS', 'lab', { 'Name server': 'ns1.example.net' });
    await records.addAndSign('SRV', '_sip._tcp', { Priority: '10', Weight: '5', Port: '5060', Target: 'sip.example.net' });
    await records.addAndSign('CAA', '@', { Flags: '0', Tag: 'issuewild', Value: 'letsencrypt.org' });
    // A name typed in Unicode is shown with its A-label before the wallet opens; the A-label is signed and stored.
    await records.fillNew('A', 'münchen', { 'IPv4 address': '192.0.2.30' });
    await expect(records.dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveAccessibleDescription(
      `münchen → xn--mnchen-3ya. Full name: xn--mnchen-3ya.${domain} (@ is ${domain} itself)`,
    );
    await expect(records.dialog.getByRole('note')).toContainText('International names are signed in their DNS form: münchen → xn--mnchen-3ya');
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog).toBeHidden();
    expect(typedSignatures(wallet.requests) - before, 'one signature per record').toBe(9);

    for (const [type, name] of [['A', 'web'], ['AAAA', 'web'], ['CNAME', 'www'], ['MX', '@'], ['TXT', '@'], ['NS', 'lab'], ['SRV', '_sip._tcp'], ['CAA', '@']]) {
      await expect(records.row(type, name)).toBeVisible();
    }
    await expect(records.row('MX', '@')).toContainText('10 mail.example.net.');
    await expect(records.row('CNAME', 'www').getByRole('cell').first()).toHaveAttribute('title', `www.${domain}`);

    // Is it live? The dashboard asks the local service's DoH what DNS answers now, and dig asks its DNS port.
    await records.row('A', 'web').getByRole('button', { name: 'Is the A record web live?' }).click();
    await expect(records.row('A', 'web').getByRole('status')).toContainText('Live: DNS answers it (TTL 1 h');
    expect(await dig(`web.${domain}`, 'A')).toEqual(['192.0.2.10']);
    expect(await dig(domain, 'MX')).toEqual(['10 mail.example.net.']);
    expect(await dig(`_sip._tcp.${domain}`, 'SRV')).toEqual(['10 5 5060 sip.example.net.']);

    const stored = await zoneRecords(domain);
    expect(stored.filter((r) => !r.metadata).map((r) => `${r.name} ${r.type} ${r.rdata}`).sort()).toEqual(
      [
        '@ CAA 0 issuewild "letsencrypt.org"',
        '@ MX 10 mail.example.net.',
        '@ TXT "v=spf1 include:_spf.example.net ~all"',
        '_sip._tcp SRV 10 5 5060 sip.example.net.',
        'lab NS ns1.example.net.',
        'web A 192.0.2.10',
        'web AAAA 2001:db8::10',
        `www CNAME web.${domain}.`,
        'xn--mnchen-3ya A 192.0.2.30',
      ].sort(),
    );

    const form = await records.edit('A', 'web');
    await form.getByLabel('IPv4 address', { exact: true }).fill('192.0.2.20');
    await form.getByRole('combobox', { name: 'TTL', exact: true }).selectOption('300');
    await expect(form.getByRole('note')).toContainText(`A web.${domain} → 192.0.2.20`);
    // The local service's own signing domain, named before the wallet opens.
    await expect(form.getByRole('note')).toContainText('Signed for Namefi Local, version 1');
    await form.getByRole('button', { name: 'Save and sign' }).click();
    await expect(form).toBeHidden();
    await expect(records.row('A', 'web')).toContainText('192.0.2.20');
    await expect(records.row('A', 'web')).toContainText('5 min');

    const confirm = await records.delete('TXT', '@');
    await expect(confirm.getByRole('note')).toContainText('Delete one record');
    await confirm.getByRole('button', { name: 'Delete and sign' }).click();
    // The row leaves the table at once (optimistic); the dialog closes once the service has answered.
    await expect(records.row('TXT', '@')).toHaveCount(0);
    await expect(confirm).toBeHidden();
    expect(typedSignatures(wallet.requests) - before).toBe(11);
    expect((await zoneRecords(domain)).some((r) => r.type === 'TXT')).toBe(false);
    // Eleven signatures of three operations: each operation's types were asked once this session, and parking's as
    // the form opened on this parked zone (it may offer to unpark first).
    expect(types.counts()).toEqual({ ...ONCE_PER_SESSION, toggleDomainParking: 1 });
  });

  test('a conflict is blocked on its field before the wallet opens', async ({ page, wallet }) => {
    const domain = unique('conflict');
    await ownDomain(TEST_KEYS.alice, domain);
    await signedCall(TEST_KEYS.alice, 'createDnsRecord', { zoneName: domain, name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 3600 });
    const records = recordsPage(page);
    await resumeSession(page, wallet);
    await records.open(domain);
    const before = typedSignatures(wallet.requests);

    await records.fillNew('CNAME', 'www', { 'Target host name': 'host.example.net' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    // The conflict is said on the Name field, naming the record in the way.
    const nameField = records.dialog.getByRole('textbox', { name: 'Name', exact: true });
    await expect(nameField).toHaveAttribute('aria-invalid', 'true');
    await expect(records.dialog.getByText(/192\.0\.2\.1/)).toBeVisible();

    // While parked, an apex A is known to meet parking before submitting (issue 15 changed this on purpose:
    // it used to be refused on the field): the form offers Unpark and add instead of Add and sign.
    await records.dialog.getByRole('combobox', { name: 'Type', exact: true }).selectOption('A');
    await records.dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('@');
    await records.dialog.getByLabel('IPv4 address', { exact: true }).fill('192.0.2.50');
    await expect(records.dialog.getByRole('button', { name: 'Unpark and add' })).toBeVisible();
    await expect(records.dialog.getByRole('button', { name: 'Add and sign' })).toHaveCount(0);
    await expect(records.dialog).toContainText(/is parked/);

    // A bad value says what is wrong, with an example.
    await records.dialog.getByLabel('IPv4 address', { exact: true }).fill('2001:db8::1');
    await records.dialog.getByRole('button', { name: /^(Add and sign|Unpark and add)$/ }).click();
    await expect(records.dialog).toContainText('use an AAAA record');
    expect(typedSignatures(wallet.requests) - before, 'no signature was asked for').toBe(0);

    await page.keyboard.press('Escape');
    await expect(records.dialog).toBeHidden();
  });

  test('a change set survives a reload and applies under one signature, all or nothing', async ({ page, wallet }) => {
    const domain = unique('changeset');
    await ownDomain(TEST_KEYS.alice, domain);
    for (const [name, rdata] of [['a', '192.0.2.1'], ['b', '192.0.2.2'], ['c', '192.0.2.3']]) {
      await signedCall(TEST_KEYS.alice, 'createDnsRecord', { zoneName: domain, name, type: 'A', rdata, ttl: 3600 });
    }
    const records = recordsPage(page);
    const types = watchTypesRequests(page);
    await resumeSession(page, wallet);
    await records.open(domain);

    // Replace the A record at c by a CNAME: the delete is applied before the create.
    await (await records.delete('A', 'c')).getByRole('button', { name: 'Add to change set' }).click();
    const editA = await records.edit('A', 'a');
    await editA.getByLabel('IPv4 address', { exact: true }).fill('198.51.100.1');
    await editA.getByRole('button', { name: 'Add to change set' }).click();
    const editB = await records.edit('A', 'b');
    await editB.getByLabel('IPv4 address', { exact: true }).fill('198.51.100.2');
    await editB.getByRole('button', { name: 'Add to change set' }).click();
    await records.addToChangeSet('CNAME', 'c', { 'Target host name': 'host.example.net' });
    await records.addToChangeSet('TXT', '@', { Text: 'hello world' });
    await expect(records.changeSet).toContainText('5 pending changes');

    // A reload starts a new session, which asks the types again, once.
    types.reset();
    await page.reload();
    await expect(records.changeSet).toContainText('5 pending changes');
    await expect(records.changeSet.getByRole('listitem')).toHaveCount(5);

    const before = typedSignatures(wallet.requests);
    const review = await records.reviewChangeSet();
    // The local service applies a whole change set as one: every kind of change under one signature, all or nothing.
    await expect(review.getByRole('note')).toContainText('Signature 1 of 1: Apply 5 changes to');
    await expect(review.getByRole('note')).toContainText('+ CNAME c.');
    await records.signChangeSet(1);
    expect(typedSignatures(wallet.requests) - before, 'one signature for the whole change set').toBe(1);
    expect(types.counts()).toEqual(WITH_A_CHANGE_SET);

    await expect(records.row('CNAME', 'c')).toBeVisible();
    await expect(records.row('A', 'a')).toContainText('198.51.100.1');
    const stored = (await zoneRecords(domain)).filter((r) => !r.metadata).map((r) => `${r.name} ${r.type} ${r.rdata}`).sort();
    expect(stored).toEqual(['@ TXT "hello world"', 'a A 198.51.100.1', 'b A 198.51.100.2', 'c CNAME host.example.net.'].sort());
  });

  test('a declined signature leaves the change set as it was', async ({ page, wallet }) => {
    const domain = unique('declined');
    await ownDomain(TEST_KEYS.alice, domain);
    const records = recordsPage(page);
    await resumeSession(page, wallet);
    await records.open(domain);
    await records.addToChangeSet('A', 'one', { 'IPv4 address': '192.0.2.1' });
    await records.addToChangeSet('A', 'two', { 'IPv4 address': '192.0.2.2' });

    wallet.rejectNext('eth_signTypedData_v4');
    await records.reviewChangeSet();
    await records.dialog.getByRole('button', { name: /Sign and apply/ }).click();
    await expect(page.getByText('Signature declined')).toBeVisible();
    await expect(records.changeSet).toContainText('2 pending changes');
    await expect(records.rowWith('192.0.2.1')).toHaveCount(0);
    expect((await zoneRecords(domain)).some((r) => r.name === 'one')).toBe(false);
  });

  test('a wallet that does not own the domain is told whose it is', async ({ page, wallet }) => {
    const domain = unique('notmine');
    await ownDomain(TEST_KEYS.bob, domain);
    const records = recordsPage(page);
    await resumeSession(page, wallet);
    await records.open(domain);

    await records.fillNew('A', 'web', { 'IPv4 address': '192.0.2.10' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    const bob = addressOf(TEST_KEYS.bob);
    const alert = records.dialog.getByRole('alert');
    await expect(alert).toContainText(`cannot change ${domain}`);
    await expect(alert).toContainText(`It belongs to ${bob}`);
    await expect(alert).toContainText('Switch to that wallet');
    // The optimistic row is rolled back.
    await page.keyboard.press('Escape');
    await expect(records.rowWith('192.0.2.10')).toHaveCount(0);
  });

  test('imports a zone file into the change set, applies it, and exports the zone', async ({ page, wallet }) => {
    const domain = unique('zonefile');
    await ownDomain(TEST_KEYS.alice, domain);
    await signedCall(TEST_KEYS.alice, 'createDnsRecord', { zoneName: domain, name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 3600 });
    const records = recordsPage(page);
    await resumeSession(page, wallet);
    await records.open(domain);

    const zoneText = [
      `$ORIGIN ${domain}.`,
      '$TTL 1h',
      `@     IN SOA ns1.example.net. hostmaster.${domain}. 1 7200 3600 1209600 3600`,
      '@     IN NS  ns1.example.net.',
      'www   IN A   192.0.2.1 ; already there',
      'api   5m IN A 192.0.2.7',
      `@        MX  10 mail.${domain}.`,
      '@        TXT "v=spf1 " "-all"',
      'broken IN A 300.1.1.1',
    ].join('\n');
    await records.section.getByRole('button', { name: 'Import zone file' }).click();
    await records.dialog.getByRole('tab', { name: 'Import' }).click();
    await records.dialog.getByRole('textbox', { name: 'Paste a zone file' }).fill(zoneText);
    await records.dialog.getByRole('button', { name: 'Read zone file' }).click();
    await expect(records.dialog).toContainText('3 new records to add');
    await expect(records.dialog).toContainText('Line 9');
    await records.dialog.getByText('What is left out and why').click();
    await expect(records.dialog).toContainText('Already in the zone');
    await expect(records.dialog).toContainText('SOA');
    await records.dialog.getByRole('button', { name: 'Add 3 to change set' }).click();
    await expect(records.changeSet).toContainText('3 pending changes');

    const before = typedSignatures(wallet.requests);
    await records.reviewChangeSet();
    await records.signChangeSet(1);
    expect(typedSignatures(wallet.requests) - before).toBe(1);
    await expect(records.row('A', 'api')).toContainText('5 min');

    await records.section.getByRole('button', { name: 'Export zone file' }).click();
    const exported = records.dialog.getByRole('textbox', { name: 'Exported zone file' });
    const text = await exported.inputValue();
    expect(text).toContain(`$ORIGIN ${domain}.`);
    for (const line of [`api.${domain}.`, `www.${domain}.`, `10 mail.${domain}.`, '"v=spf1 " "-all"']) expect(text).toContain(line);
    expect(text).not.toContain('34.123.0.161');
    const download = page.waitForEvent('download');
    await records.dialog.getByRole('link', { name: `Download ${domain}.zone` }).click();
    const file = await (await download).path();
    expect(await readFile(file, 'utf8')).toBe(text);

    // Exported and imported again: nothing new.
    await records.dialog.getByRole('tab', { name: 'Import' }).click();
    await records.dialog.getByRole('textbox', { name: 'Paste a zone file' }).fill(text);
    await records.dialog.getByRole('button', { name: 'Read zone file' }).click();
    await expect(records.dialog).toContainText('0 new records to add');
  });

  test('a zone file of 2,500 records is read from a file and applied in three signed batches, with progress', async ({ page, wallet }) => {
    const domain = unique('bigimport');
    await ownDomain(TEST_KEYS.alice, domain);
    const before = (await zoneRecords(domain)).length;
    const lines = ['$TTL 1h', ...Array.from({ length: 2500 }, (_, i) => `host-${i} IN A 10.9.${i >> 8}.${i & 255}`)];
    const records = recordsPage(page);
    await resumeSession(page, wallet);
    await records.open(domain);

    await records.chooseZoneFile(`${domain}.zone`, lines.join('\n'));
    await expect(records.dialog).toContainText(`Chosen: ${domain}.zone`);
    await records.dialog.getByRole('button', { name: 'Read zone file' }).click();
    // Said before anything is signed: how the records go, and what a refused batch does.
    await expect(records.dialog).toContainText('They go in 3 batches of at most 1,000 records, one signature each');
    await expect(records.dialog).toContainText('Each batch is all or nothing');
    await records.dialog.getByRole('button', { name: 'Add 2500 to change set' }).click();
    await expect(records.changeSet).toContainText('2500 pending changes');

    const signed = typedSignatures(wallet.requests);
    const review = await records.reviewChangeSet();
    await review.getByRole('button', { name: 'Sign and apply (3 signatures)' }).click();
    await expect(page.getByRole('progressbar', { name: 'Applying the change set' })).toBeVisible();
    await expect(records.changeSet).toBeHidden({ timeout: 120_000 });
    expect(typedSignatures(wallet.requests) - signed).toBe(3);
    await expect.poll(async () => (await zoneRecords(domain)).length).toBe(before + 2500);
  });

  test('a template fills the change set, compared with the zone first', async ({ page, wallet }) => {
    const domain = unique('template');
    await ownDomain(TEST_KEYS.alice, domain);
    await signedCall(TEST_KEYS.alice, 'createDnsRecord', { zoneName: domain, name: 'autodiscover', type: 'CNAME', rdata: 'autodiscover.outlook.com.', ttl: 3600 });
    const records = recordsPage(page);
    await resumeSession(page, wallet);
    await records.open(domain);

    await records.section.getByRole('button', { name: 'Templates' }).click();
    await records.dialog.getByRole('combobox', { name: 'Template' }).selectOption({ label: 'Microsoft 365 mail' });
    await expect(records.dialog.getByRole('listitem')).toHaveCount(2);
    await expect(records.dialog).toContainText(`+ MX ${domain} → 0 ${domain.replace('.', '-')}.mail.protection.outlook.com.`);
    await expect(records.dialog).toContainText('Already in the zone: not duplicated');
    await records.dialog.getByRole('button', { name: 'Add to change set' }).click();
    await expect(records.changeSet).toContainText('2 pending changes');

    const before = typedSignatures(wallet.requests);
    await records.reviewChangeSet();
    await records.signChangeSet(1);
    expect(typedSignatures(wallet.requests) - before).toBe(1);
    await expect(records.row('MX', '@')).toContainText('mail.protection.outlook.com.');
  });

  test('search, type filter, sort and keyboard shortcuts', async ({ page }) => {
    const domain = unique('search');
    await ownDomain(TEST_KEYS.alice, domain);
    await signedCall(TEST_KEYS.alice, 'batchCreateDnsRecords', {
      zoneName: domain,
      records: [
        { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 },
        { name: 'mail', type: 'A', rdata: '192.0.2.25', ttl: 3600 },
        { name: '@', type: 'MX', rdata: `10 mail.${domain}.`, ttl: 3600 },
      ],
    });
    const records = recordsPage(page);
    await records.open(domain);
    await page.keyboard.press('/');
    await expect(records.search).toBeFocused();
    await page.keyboard.type('mail');
    await expect(records.row('A', 'mail')).toBeVisible();
    await expect(records.row('MX', '@')).toBeVisible();
    await expect(records.row('A', 'www')).toHaveCount(0);
    await records.search.fill('');
    await records.typeFilter.selectOption('MX');
    await expect(records.table.getByRole('button', { name: /^Edit / })).toHaveCount(1);
    await records.typeFilter.selectOption('all');

    await records.table.getByRole('button', { name: 'TTL' }).click();
    await expect(records.table.getByRole('columnheader', { name: 'TTL' })).toHaveAttribute('aria-sort', 'ascending');
    await expect(records.table.getByRole('row').nth(1)).toContainText('1 min');

    // Focus leaves the fields (a click on the section's heading), so the shortcut is not typed into one.
    await page.getByRole('heading', { name: 'DNS records' }).click();
    await page.keyboard.press('n');
    await expect(records.dialog.getByRole('heading', { name: 'Add a record' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(records.dialog).toBeHidden();
  });
});
