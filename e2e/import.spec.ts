import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test, expect } from './support/fixtures.ts';
import { TEST_KEYS } from './support/keys.ts';
import { resumeSession } from './support/pages.ts';
import { call, ownDomain, signedCall } from './support/service-client.ts';
import { isManaged } from '#core/wire/dns.ts';
import { recordsPage, typedSignatures } from './pages/records.ts';
import { nameServersMissing, startNamed, type RunningNameServer } from '../test/support/name-servers.ts';
import { freePort } from '../test/support/ports.ts';

/**
 * Moving a domain here from another provider (issue 36): BIND on loopback plays the old provider (the journeys'
 * service runs with SCAN_ALLOW_PRIVATE=true for it), the Records tab reads the zone from it into the change set and
 * applies it in one signature; then the Mail tab's DMARC finding goes into the change set and is signed once.
 */
const domain = `import-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}.com`;
/** The old provider's records (besides its SOA and apex NS), in the service's stored form. */
const OLD = [
  ['@', 'A', '192.0.2.10'],
  ['@', 'MX', `10 mail.${domain}.`],
  ['@', 'TXT', '"v=spf1 mx -all"'],
  ['@', 'CAA', '0 issue "letsencrypt.org"'],
  ['www', 'CNAME', `${domain}.`],
  ['mail', 'A', '192.0.2.25'],
  ['api', 'AAAA', '2001:db8::30'],
  ['_imaps._tcp', 'SRV', `0 1 993 mail.${domain}.`],
  ['intranet-7', 'A', '192.0.2.77'],
] as const;
const dig = async (name: string, type: string) => {
  const { stdout } = await promisify(execFile)('/usr/bin/dig', ['@127.0.0.1', '-p', process.env.E2E_DNS_PORT!, '+short', '+norec', name, type], { encoding: 'utf8' });
  return stdout.trim().split('\n').filter(Boolean);
};
const stored = async () => (await call('getDnsRecords', { query: { zoneName: domain } })).filter((r) => !isManaged(r)).map((r) => `${r.name} ${r.type} ${r.rdata}`);

let dir: string;
let named: RunningNameServer;

test.describe('Import from the old provider', () => {
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async () => {
    const missing = nameServersMissing(['named']);
    if (missing) throw new Error(missing);
    dir = mkdtempSync(join(tmpdir(), 'namefi-e2e-old-provider-'));
    const port = await freePort();
    const zone = [`$ORIGIN ${domain}.`, `@ 3600 IN SOA ns1.old-provider.test. hostmaster.${domain}. 1 3600 600 86400 300`, '@ 3600 IN NS ns1.old-provider.test.', ...OLD.map(([n, t, d]) => `${n} 300 IN ${t} ${d}`), ''];
    writeFileSync(join(dir, 'old.db'), zone.join('\n'));
    named = await startNamed(dir, port, `zone "${domain}" { type primary; file "${join(dir, 'old.db')}"; allow-transfer { any; }; };`, domain);
    await ownDomain(TEST_KEYS.alice, domain);
    // Parking holds a new domain's apex address; the person moving in turns it off first (its own journey tests that).
    await signedCall(TEST_KEYS.alice, 'toggleDomainParking', { normalizedDomainName: domain, enableParking: false, overrideExistingRecords: false });
  });

  test.afterAll(async () => {
    await named?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('reads the zone from BIND into the change set, applies it in one signature, then fixes DMARC from the Mail tab in one more', async ({ page, wallet }) => {
    const records = recordsPage(page);
    await resumeSession(page, wallet);
    await records.open(domain);

    // A zone with nothing of its owner's: the import is offered first.
    await records.section.getByRole('button', { name: 'Import from your current provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import from your current provider' });
    await dialog.getByLabel('Current name server (optional)').fill(`127.0.0.1:${named.port}`);
    await dialog.getByRole('button', { name: 'Scan' }).click();
    await expect(dialog.getByRole('status')).toContainText(`Found ${OLD.length} records by a zone transfer (every record the server holds), with 1 DNS query.`);
    await expect(dialog).toContainText('allowed a zone transfer (AXFR)');
    await expect(dialog.getByRole('table', { name: 'Records to add' })).toContainText('intranet-7');
    await dialog.getByRole('button', { name: `Add ${OLD.length} to change set` }).click();
    await expect(records.changeSet).toContainText(`${OLD.length} pending changes`);
    expect(await stored()).toEqual([]);

    const before = typedSignatures(wallet.requests);
    await records.reviewChangeSet();
    await records.signChangeSet(1);
    expect(typedSignatures(wallet.requests) - before).toBe(1);
    expect((await stored()).sort()).toEqual(OLD.map(([n, t, d]) => `${n} ${t} ${d}`).sort());
    await expect.poll(() => dig(`www.${domain}`, 'CNAME')).toEqual([`${domain}.`]);

    // The imported zone has no DMARC record: the Mail tab says so and puts the fix into the change set.
    await page.getByRole('tab', { name: 'Mail', exact: true }).click();
    await page.getByRole('button', { name: `Put the TXT record at _dmarc.${domain} in the change set` }).click();
    await expect(page.getByRole('tab', { name: 'Records', exact: true })).toHaveAttribute('aria-selected', 'true');
    await expect(records.changeSet).toContainText('1 pending change');
    await records.reviewChangeSet();
    await records.signChangeSet(1);
    expect(typedSignatures(wallet.requests) - before).toBe(2);
    await expect.poll(() => dig(`_dmarc.${domain}`, 'TXT')).toEqual([`"v=DMARC1; p=none; rua=mailto:dmarc@${domain}"`]);
  });
});
