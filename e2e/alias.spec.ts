import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test, expect } from './support/fixtures.ts';
import { TEST_KEYS } from './support/keys.ts';
import { resumeSession } from './support/pages.ts';
import { ownDomain, signedCall } from './support/service-client.ts';
import { recordsPage, typedSignatures } from './pages/records.ts';

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}.com`;
const dig = async (name: string, type: string) => {
  const { stdout } = await promisify(execFile)('/usr/bin/dig', ['@127.0.0.1', '-p', process.env.E2E_DNS_PORT!, '+short', '+norec', name, type], { encoding: 'utf8' });
  return stdout.trim().split('\n').filter(Boolean).sort();
};

test.describe('ALIAS at the apex', () => {
  test.describe.configure({ timeout: 180_000 });
  const domain = unique('alias');
  // The "platform" the apex points at: another zone of this service (the journeys' service has no DNS_RESOLVER).
  const platform = unique('platform');

  test.beforeAll(async () => {
    await Promise.all([ownDomain(TEST_KEYS.alice, domain), ownDomain(TEST_KEYS.alice, platform)]);
    for (const zone of [domain, platform]) await signedCall(TEST_KEYS.alice, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false });
    await signedCall(TEST_KEYS.alice, 'batchCreateDnsRecords', {
      zoneName: platform,
      records: [
        { name: 'app', type: 'A', rdata: '192.0.2.77', ttl: 60 },
        { name: 'app', type: 'A', rdata: '192.0.2.78', ttl: 60 },
      ],
    });
  });

  test('point the apex at a host name with ALIAS: told when to use it, an apex CNAME refused in favour of it, one signature, live with its addresses', async ({ page, wallet }) => {
    await resumeSession(page, wallet);
    const records = recordsPage(page);
    await records.open(domain);

    // The form says when ALIAS is the answer: a CNAME at the apex is refused before anything is signed.
    await records.fillNew('CNAME', '@', { 'Target host name': `app.${platform}` });
    await expect(records.dialog.getByText('At the apex, use ALIAS')).toBeVisible();
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog.getByText(/cannot have a CNAME/)).toBeVisible();
    const before = typedSignatures(wallet.requests);

    await records.dialog.getByRole('combobox', { name: 'Type', exact: true }).selectOption('ALIAS');
    await expect(records.dialog.getByText(/Use ALIAS where a CNAME cannot go: at the zone itself/)).toBeVisible();
    await records.dialog.getByLabel('Target host name', { exact: true }).fill(`app.${platform}`);
    await expect(records.dialog.getByRole('note')).toContainText(`ALIAS ${domain} → app.${platform}.`);
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog).toBeHidden();
    expect(typedSignatures(wallet.requests) - before).toBe(1);
    await expect(records.row('ALIAS', '@')).toContainText(`app.${platform}.`);

    // Live? asks DNS (the service's DoH) what the apex resolves to now: the platform's addresses.
    const row = records.row('ALIAS', '@');
    await expect(async () => {
      await row.getByRole('button', { name: 'Is the ALIAS record @ live?' }).click();
      await expect(row.getByRole('status')).toContainText('Live → 192.0.2.77, 192.0.2.78', { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(row.getByRole('status')).toContainText(`the addresses of app.${platform}.`);
    expect(await dig(domain, 'A')).toEqual(['192.0.2.77', '192.0.2.78']);

    // An A beside it is refused at the name, with the rule's words, before the wallet opens.
    await records.fillNew('A', '@', { 'IPv4 address': '192.0.2.9' });
    await records.dialog.getByRole('button', { name: 'Add and sign' }).click();
    await expect(records.dialog.getByText(/has an ALIAS \(following app\./)).toBeVisible();
    expect(typedSignatures(wallet.requests) - before).toBe(1);
  });
});
