import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test, expect } from './support/fixtures.ts';
import { TEST_KEYS } from './support/keys.ts';
import { resumeSession } from './support/pages.ts';
import { call, ownDomain } from './support/service-client.ts';
import { recordsPage } from './pages/records.ts';
import { dnssecPanel } from './pages/dnssec.ts';
import { domainPage } from './pages/domain.ts';

const domain = `dnssec-${Date.now().toString(36)}.com`;

/** BIND's validator against the local name server, with the DS the dashboard showed as its only trust anchor. */
async function delv(ds: { keyTag: number; digest: string }, name: string, type: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-delv-'));
  try {
    await writeFile(join(dir, 'anchors.conf'), `trust-anchors { "${domain}." static-ds ${ds.keyTag} 13 2 "${ds.digest}"; };\n`);
    const args = ['@127.0.0.1', '-p', process.env.E2E_DNS_PORT!, '-a', join(dir, 'anchors.conf'), `+root=${domain}`, name, type];
    const { stdout, stderr } = await promisify(execFile)(process.env.DELV ?? '/usr/bin/delv', args, { encoding: 'utf8' });
    return stdout + stderr;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test.describe('DNSSEC', () => {
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async () => {
    await ownDomain(TEST_KEYS.alice, domain);
  });

  test('turn DNSSEC on, copy the DS, change a record, and see "signed" in the live check', async ({ page, wallet }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await resumeSession(page, wallet);
    const dnssec = dnssecPanel(page);
    const records = recordsPage(page);
    await records.open(domain);
    await expect(domainPage(page).fact('DNSSEC')).toHaveText('Not signed');
    await dnssec.open();
    await expect(dnssec.state).toHaveText(/^Not signed/);
    await expect(dnssec.toggle).toHaveAttribute('aria-checked', 'false');

    // What it means and what to do next are said before the wallet opens.
    const signaturesBefore = wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length;
    await dnssec.toggle.click();
    await expect(dnssec.dialog).toContainText('Next: add the DS record shown here at your registrar');
    await expect(dnssec.dialog.getByRole('note')).toContainText(`Turn DNSSEC on for ${domain}`);
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(signaturesBefore);
    await dnssec.confirmOn.click();
    await expect(dnssec.dialog).toBeHidden();
    await expect(dnssec.state).toHaveText(/^Signed/);
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(signaturesBefore + 1);

    // The DS as the service answers it, field by field and whole, and copied as a registrar's form takes it.
    const state = await call('getDnssec', { query: { normalizedDomainName: domain } });
    const ds = state.ds[0];
    await expect(dnssec.field('Key tag')).toContainText(String(ds.keyTag));
    await expect(dnssec.field('Digest')).toHaveText(ds.digest);
    await expect(dnssec.wholeRecord).toHaveText(state.dsRecords[0]);
    await dnssec.copy('Whole DS record').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(state.dsRecords[0]);
    await dnssec.copy('Digest').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ds.digest);
    await expect(dnssec.chain).toContainText(`The parent zone (.com) has no DS record for ${domain} yet`);
    // The overview says it is signed; the records table lists the key's records as DNSSEC's, read-only: the CDS carries the same DS.
    await expect(domainPage(page).fact('DNSSEC')).toHaveText(`Signed (key ${ds.keyTag})`);
    await records.show();
    const cds = records.rowWith(`${ds.keyTag} 13 2 ${ds.digest.slice(0, 16)}`);
    await expect(cds).toContainText('Managed by DNSSEC');
    await expect(cds.getByRole('button')).toHaveCount(0);

    // A signed change: the live check asks DoH with the DO bit and checks the signature in the browser.
    await records.addAndSign('A', 'web', { 'IPv4 address': '192.0.2.44' });
    await records.row('A', 'web').getByRole('button', { name: 'Is the A record web live?' }).click();
    const live = records.row('A', 'web').getByRole('status');
    await expect(live).toContainText('Live: DNS answers it');
    await expect(live).toContainText("· signed: signed by the zone's key");
    // And BIND's validator agrees, from the DS the panel showed.
    expect(await delv(ds, `web.${domain}`, 'A')).toContain('; fully validated');

    // NSEC3 instead of NSEC: one more signature, the same key, so the DS the parent holds still validates.
    await dnssec.open();
    await expect(dnssec.algorithm).toBeEnabled();
    await dnssec.proof.selectOption('nsec3');
    await expect(dnssec.panel.getByRole('note').filter({ hasText: 'the DS record at your registrar stays as it is' })).toBeVisible();
    await dnssec.signWith('NSEC3').click();
    await expect(dnssec.state).toHaveText(/, NSEC3\)/);
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(signaturesBefore + 3);
    await expect(dnssec.field('Digest')).toHaveText(ds.digest);
    expect(await delv(ds, `nope.${domain}`, 'A')).toContain('; negative response, fully validated');

    // Another algorithm: an algorithm rollover, said and signed; its first step keeps the DS the parent holds valid.
    await dnssec.algorithm.selectOption('15');
    await dnssec.rollOverTo(15).click();
    await expect(dnssec.dialog.getByRole('note')).toContainText(`Roll ${domain} over from algorithm 13`);
    await dnssec.confirmRollover.click();
    await expect(dnssec.rollover).toContainText('step 1 of 5');
    await expect(dnssec.rollover).toContainText(`Keep the DS of key ${ds.keyTag} at your registrar`);
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(signaturesBefore + 4);
    expect(await delv(ds, `web.${domain}`, 'A')).toContain('; fully validated');
  });
});
