import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { faucet, registerDomain, siweSignIn, waitForOrder } from './support/service-client.ts';
import { resumeSession } from './support/pages.ts';
import { recordsPage } from './pages/records.ts';
import { domainPage } from './pages/domain.ts';
import { parkingPanel } from './pages/parking.ts';
import { watchTypesRequests } from './support/types-requests.ts';

const owner = generatePrivateKey();
const run = Date.now().toString(36);
const domain = `park-${run}.com`;
const PARKING_A = '34.123.0.161';
const OWN_A = '192.0.2.7';

test.describe('parking', () => {
  test.use({ walletKeys: [owner] });

  test.beforeAll(async () => {
    // Registered with an apex A record, so the domain starts unparked.
    const token = await siweSignIn(owner);
    await faucet(token);
    const order = await registerDomain(owner, domain, { records: [{ name: '@', type: 'A', rdata: OWN_A, ttl: 3600 }] });
    const done = await waitForOrder(token, order.id);
    expect(done.order.status).toBe('SUCCEEDED');
  });

  test('park keeping the apex records, unpark, then park replacing them', async ({ page, wallet }) => {
    const types = watchTypesRequests(page);
    await resumeSession(page, wallet);
    await page.goto(`/domains/${domain}`);
    const parking = parkingPanel(page);
    const records = recordsPage(page);
    await expect(records.rowWith(OWN_A)).toBeVisible();
    await parking.open();
    await expect(parking.state).toHaveText(/Not parked/);
    await expect(parking.toggle).toHaveAttribute('aria-checked', 'false');

    // Park, keeping the owner's A record beside the parking records.
    await parking.toggle.click();
    await expect(parking.dialog).toContainText(`@ A ${OWN_A}`);
    await expect(parking.keep).toBeChecked();
    await expect(parking.dialog.getByRole('note')).toContainText('Keep your 1 apex A/AAAA/CAA record beside them');
    await parking.confirmPark.click();
    await expect(parking.dialog).toBeHidden();
    await expect(parking.state).toHaveText(/^Parked/);
    await records.show();
    await expect(records.rowWith(PARKING_A)).toBeVisible();
    await expect(records.rowWith(OWN_A)).toBeVisible();

    // Unpark: the managed records go, the owner's stay.
    await parking.open();
    await parking.toggle.click();
    await expect(parking.dialog.getByRole('note')).toContainText(`Stop parking ${domain}`);
    await parking.confirmUnpark.click();
    await expect(parking.state).toHaveText(/Not parked/);
    await records.show();
    await expect(records.rowWith(PARKING_A)).toHaveCount(0);
    await expect(records.rowWith(OWN_A)).toBeVisible();

    // Park replacing the apex A record.
    await parking.open();
    await parking.toggle.click();
    await parking.replace.check();
    await expect(parking.dialog.getByRole('note')).toContainText('Delete your 1 apex A/AAAA/CAA record they replace');
    await parking.confirmPark.click();
    await expect(parking.state).toHaveText(/^Parked/);
    await records.show();
    await expect(records.rowWith(PARKING_A)).toBeVisible();
    await expect(records.rowWith(OWN_A)).toHaveCount(0);
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(3);
    // Three parking signatures, one types request for them; the records editor on the same page asked its own once.
    expect(types.counts()).toMatchObject({ toggleDomainParking: 1, createDnsRecord: 1 });
    expect(Object.values(types.counts()).every((n) => n === 1)).toBe(true);
  });

  test('declining the signature leaves parking as it was', async ({ page, wallet }) => {
    await resumeSession(page, wallet);
    await page.goto(`/domains/${domain}`);
    const parking = parkingPanel(page);
    await parking.open();
    await expect(parking.state).toHaveText(/parked/i);
    const before = await parking.toggle.getAttribute('aria-checked');
    await parking.toggle.click();
    wallet.rejectNext('eth_signTypedData_v4');
    await (before === 'true' ? parking.confirmUnpark : parking.confirmPark).click();
    await expect(parking.panel.getByText('You declined the signature; parking is unchanged.')).toBeVisible();
    await expect(parking.toggle).toHaveAttribute('aria-checked', before ?? 'false');
  });
});

test.describe('parking meets the first record', () => {
  const newOwner = generatePrivateKey();
  const fresh = `first-${run}.com`;
  test.use({ walletKeys: [newOwner] });

  test.beforeAll(async () => {
    // Registered without records: a new domain starts parked.
    const token = await siweSignIn(newOwner);
    await faucet(token);
    const order = await registerDomain(newOwner, fresh);
    expect((await waitForOrder(token, order.id)).order.status).toBe('SUCCEEDED');
  });

  test('the record form knows the domain is parked and offers Unpark and add, with both signatures in words', async ({ page, wallet }) => {
    await resumeSession(page, wallet);
    const records = recordsPage(page);
    await records.open(fresh);
    // The overview above the records says it is parked; the switch itself is in the Forwarding and parking tab.
    const parked = domainPage(page).fact('Parking / forwarding');
    await expect(parked).toHaveText('Parked');

    await records.fillNew('A', '@', { 'IPv4 address': OWN_A });
    const dialog = records.dialog;
    await expect(dialog.getByRole('status').filter({ hasText: `${fresh} is parked` })).toBeVisible();
    const note = dialog.getByRole('note');
    await expect(note).toContainText(`1. Stop parking ${fresh}: the parking records go, your own records stay`);
    await expect(note).toContainText(`2. Add one record in ${fresh}`);
    await expect(note).toContainText(OWN_A);
    await expect(dialog.getByRole('button', { name: 'Add and sign' })).toHaveCount(0);
    const typedBefore = wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length;

    await dialog.getByRole('button', { name: 'Unpark and add' }).click();
    await expect(dialog).toBeHidden();
    await expect(parked).toHaveText('Neither');
    await expect(records.rowWith(OWN_A)).toBeVisible();
    await expect(records.rowWith(PARKING_A)).toHaveCount(0);
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length - typedBefore, 'unpark, then the record').toBe(2);
  });
});
