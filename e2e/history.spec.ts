import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { test, expect } from './support/fixtures.ts';
import { addressOf, TEST_KEYS } from './support/keys.ts';
import { resumeSession } from './support/pages.ts';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { call, ownDomain, signedCall, siweSignIn, withToken } from './support/service-client.ts';
import { recordsPage, typedSignatures } from './pages/records.ts';
import { historyPage } from './pages/history.ts';
import { shortAddress } from '../src/lib/format.ts';

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}.com`;
const storedRecords = async (zoneName: string) =>
  (await call('getDnsRecords', { query: { zoneName } }))
    .filter((r) => !r.metadata)
    .map((r) => `${r.name} ${r.type} ${r.rdata}`)
    .sort();

test.describe('zone history', () => {
  test.describe.configure({ timeout: 180_000 });

  test('edit and delete, verify both, revert the delete in one signature, restore an earlier point, settle a conflict, export and verify offline', async ({ page, wallet }) => {
    const domain = unique('history');
    await ownDomain(TEST_KEYS.alice, domain);
    await signedCall(TEST_KEYS.alice, 'createDnsRecord', { zoneName: domain, name: 'a', type: 'A', rdata: '192.0.2.1', ttl: 3600 });
    await signedCall(TEST_KEYS.alice, 'createDnsRecord', { zoneName: domain, name: 'b', type: 'A', rdata: '192.0.2.2', ttl: 3600 });
    const records = recordsPage(page);
    const history = historyPage(page);
    await resumeSession(page, wallet);
    await records.open(domain);

    // Edit one record and delete another, one signature each.
    const form = await records.edit('A', 'a');
    await form.getByLabel('IPv4 address', { exact: true }).fill('198.51.100.1');
    await form.getByRole('button', { name: 'Save and sign' }).click();
    await expect(form).toBeHidden();
    await (await records.delete('A', 'b')).getByRole('button', { name: 'Delete and sign' }).click();
    await expect(records.row('A', 'b')).toHaveCount(0);
    await expect(records.dialog).toBeHidden();

    await history.open();
    await expect(history.entries().first()).toContainText('Deleted a record');
    await expect(history.entries().nth(1)).toContainText('Edited a record');
    const [deleted, edited] = (await call('getZoneHistory', { query: { zoneName: domain } }, withToken(await siweSignIn(TEST_KEYS.alice)))).entries;
    await expect(history.entries().first()).toContainText(`by ${shortAddress(addressOf(TEST_KEYS.alice).toLowerCase())}`);
    await expect(history.entries().first()).toContainText('signed (EIP-712, RecordSelect)');

    // Verify both in the browser.
    for (const entry of [deleted, edited]) {
      const item = await history.entry(entry.serial);
      await item.getByRole('button', { name: `Verify the signature of serial ${entry.serial}` }).click();
      await expect(item.getByRole('status')).toHaveText(`signed by ${shortAddress(addressOf(TEST_KEYS.alice).toLowerCase())} ✓ with a key`);
    }
    await expect(await history.entry(edited.serial)).toContainText('- a 3600 A 192.0.2.1');
    await expect(await history.entry(edited.serial)).toContainText('+ a 3600 A 198.51.100.1');
    await expectNoSeriousA11yViolations(page);

    // Revert the delete: the inverse joins the change set, shown as a diff, and is signed once.
    await (await history.entry(deleted.serial)).getByRole('button', { name: 'Revert this change' }).click();
    await expect(history.dialog.getByRole('list', { name: 'Changes to put back' })).toContainText('+ b 3600 A 192.0.2.2');
    await expectNoSeriousA11yViolations(page);
    await history.dialog.getByRole('button', { name: 'Add to the change set' }).click();
    await expect(records.changeSet).toContainText('1 pending change');
    const before = typedSignatures(wallet.requests);
    const review = await records.reviewChangeSet();
    await expect(review.getByRole('note')).toContainText('Add 1 record');
    await records.signChangeSet(1);
    expect(typedSignatures(wallet.requests) - before, 'one signature for the revert').toBe(1);
    expect(await storedRecords(domain)).toEqual(['a A 198.51.100.1', 'b A 192.0.2.2']);

    // A record's own history, from its row.
    await page.getByRole('button', { name: 'History of A record a', exact: true }).click();
    await expect(history.entries()).toHaveCount(2);
    await expect(history.entries().first()).toContainText('Edited a record');
    await history.section.getByRole('button', { name: /show all/ }).click();

    // Restore the zone as it stood after b was added: a's edit goes back; b, back already, stays.
    await expect(history.entries()).toHaveCount(5);
    const created = await history.entry(edited.serial - 1);
    await created.getByRole('button', { name: 'Restore the zone as it was at this point' }).click();
    await expect(history.dialog.getByRole('list', { name: 'Changes to put back' }).getByRole('listitem')).toHaveCount(1);
    await history.dialog.getByRole('button', { name: 'Add to the change set' }).click();
    await records.reviewChangeSet();
    await records.signChangeSet(1);
    expect(await storedRecords(domain)).toEqual(['a A 192.0.2.1', 'b A 192.0.2.2']);

    // Someone changes a again elsewhere; reverting the first edit now meets a conflict, settled before signing.
    const a = (await call('getDnsRecords', { query: { zoneName: domain } })).find((r) => r.name === 'a')!;
    await signedCall(TEST_KEYS.alice, 'updateDnsRecord', { id: a.id, zoneName: domain, name: 'a', type: 'A', rdata: '203.0.113.5', ttl: 3600 });
    await history.open();
    await (await history.entry(edited.serial)).getByRole('button', { name: 'Revert this change' }).click();
    await expect(history.dialog).toContainText('Conflict: changed since: it is now a A 203.0.113.5 (TTL 3600)');
    const add = history.dialog.getByRole('button', { name: 'Add to the change set' });
    await expect(add).toBeDisabled();
    await history.dialog.getByRole('radio', { name: 'Put the old version back' }).check();
    await add.click();
    await records.reviewChangeSet();
    await records.signChangeSet(1);
    expect(await storedRecords(domain)).toEqual(['a A 192.0.2.1', 'b A 192.0.2.2']);

    // Export the history and verify the file offline with the project's verifier.
    await history.open();
    await expect(history.entries()).toHaveCount(8);
    const download = page.waitForEvent('download');
    await history.section.getByRole('button', { name: 'Download history (NDJSON)' }).click();
    const file = await (await download).path();
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/verify-history.ts', file]);
    expect(stdout).toContain('8 entries: 8 verified, 0 failed, 0 need a chain (ERC-1271), 0 unsigned');
    expect(stdout).toContain('✓ continuity');

    // The zone file as it stood just after the delete: a edited, b gone.
    const zoneFile = page.waitForEvent('download');
    await (await history.entry(deleted.serial)).getByRole('button', { name: 'Zone file at this point' }).click();
    const text = await readFile((await (await zoneFile).path())!, 'utf8');
    expect(text).toContain(`a.${domain}.  3600  IN  A  198.51.100.1`);
    expect(text).not.toContain('192.0.2.2');
  });

  test('against a service that keeps no history, the tab says so without an error', async ({ page, wallet }) => {
    const domain = unique('nohistory');
    await ownDomain(TEST_KEYS.alice, domain);
    // Production has no history operation: its answer for an unknown path.
    await page.route('**/v-next/dns/history?**', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"message":"Not Found"}' }));
    await resumeSession(page, wallet);
    await page.goto(`/domains/${domain}?tab=history`);
    await expect(page.getByText(`This service keeps no history of ${domain}'s changes.`)).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
