import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, testClient, TEST_KEYS, type TestClient } from '../../test/support/client.ts';
import { registerAndWait } from '../../test/support/orders.ts';
import { isTerminal } from '#core/wire/orders.ts';
import { finishOrder, startOrder } from '../orders/processing.ts';

// renewDomain against the real service (database registry): the price, a gift, the 10-year cap, 402, and a retried
// order charged once. The chain's side (the registry's expiry moved with the database's) is ../chain/renew-on-chain.test.ts.
const [ALICE, BOB, CAROL] = TEST_KEYS;
let service: TestService;
let client: TestClient;

const session = async (key: Hex) => client.withToken(await client.signIn(key));
const balanceOf = async (key: Hex): Promise<number> => (await client.call('getBalance', { headers: await session(key) })).body.totalBalanceInUsdCents;
const expiryOf = async (name: string): Promise<string> => {
  const [row] = await service.services.db.query<{ expires_at: Date }>('SELECT expires_at FROM domains WHERE name = $1', [name]);
  return new Date(row.expires_at).toISOString();
};
const addYears = (iso: string, years: number) => {
  const d = new Date(iso);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString();
};
async function settled(key: Hex, orderId: string) {
  const headers = await session(key);
  return vi.waitFor(
    async () => {
      const reply = await client.call('getOrder', { params: { orderId }, headers });
      if (!isTerminal(reply.body.order.status)) throw new Error(`still ${reply.body.order.status}`);
      return reply.body;
    },
    { timeout: 10_000, interval: 20 },
  );
}

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
  for (const key of [ALICE, ALICE, BOB]) expect((await client.call('requestFaucet', { body: {}, headers: await session(key) })).status).toBe(200);
  await registerAndWait(client, ALICE, 'renewme.com');
  await registerAndWait(client, ALICE, 'gifted.org');
  await registerAndWait(client, ALICE, 'capped.com');
}, 60_000);
afterAll(() => service?.destroy());

describe('renewDomain', () => {
  it('charges renewalPrice × years and extends the expiry by calendar years, as a RENEW item', async () => {
    const before = await balanceOf(ALICE);
    const expiry = await expiryOf('renewme.com');
    const created = await client.signed(ALICE, 'renewDomain', { normalizedDomainName: 'renewme.com', durationInYears: 2 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      status: 'CREATED',
      amountInUSDCents: 2 * 1250,
      items: [{ normalizedDomainName: 'renewme.com', type: 'RENEW', durationInYears: 2, amountInUSDCents: 2500, metadata: { previousExpiresAt: expiry, newExpiresAt: addYears(expiry, 2) } }],
    });
    const done = await settled(ALICE, created.body.id);
    expect(done.order.status).toBe('SUCCEEDED');
    expect(done.payments).toEqual([expect.objectContaining({ amountInUSDCents: 2500, status: 'COMPLETED' })]);
    expect(await balanceOf(ALICE)).toBe(before - 2500);
    expect(await expiryOf('renewme.com')).toBe(addYears(expiry, 2));
    const domains = (await client.call('getUserDomains', { headers: await session(ALICE) })).body as { normalizedDomainName?: string; name?: string; expiresAt?: string; expirationDate?: string }[];
    expect(JSON.stringify(domains)).toContain(addYears(expiry, 2).slice(0, 10));
  });

  it('lets any wallet pay for a name it does not hold (a gift): the payer is charged, the holder keeps it', async () => {
    const [aliceBefore, bobBefore] = [await balanceOf(ALICE), await balanceOf(BOB)];
    const expiry = await expiryOf('gifted.org');
    const created = await client.signed(BOB, 'renewDomain', { normalizedDomainName: 'gifted.org', durationInYears: 1 });
    expect(created.status).toBe(200);
    expect(created.body.nftWalletAddress).toBe(addressOf(ALICE).toLowerCase());
    expect((await settled(BOB, created.body.id)).order.status).toBe('SUCCEEDED');
    expect(await balanceOf(BOB)).toBe(bobBefore - 1100);
    expect(await balanceOf(ALICE)).toBe(aliceBefore);
    expect(await expiryOf('gifted.org')).toBe(addYears(expiry, 1));
    const [holder] = await service.services.db.query<{ owner_address: string }>('SELECT owner_address FROM domains WHERE name = $1', ['gifted.org']);
    expect(holder.owner_address).toBe(addressOf(ALICE).toLowerCase());
    // The gift's order is the payer's: the holder cannot read it.
    expect((await client.call('getOrder', { params: { orderId: created.body.id }, headers: await session(ALICE) })).status).toBe(401);
  });

  it('refuses a new expiry more than 10 years after now with a 400 naming durationInYears, and takes nothing', async () => {
    const before = await balanceOf(ALICE);
    // Registered for 1 year: 10 more would end 11 years from now.
    const refused = await client.signed(ALICE, 'renewDomain', { normalizedDomainName: 'capped.com', durationInYears: 10 });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('durationInYears');
    expect(JSON.stringify(refused.body)).toMatch(/at most \d{4}-\d{2}-\d{2} \(10 years from now\)/);
    const beyond = await client.signed(ALICE, 'renewDomain', { normalizedDomainName: 'capped.com', durationInYears: 11 });
    expect(beyond.status).toBe(400);
    expect(JSON.stringify(beyond.body)).toContain('durationInYears');
    expect(await balanceOf(ALICE)).toBe(before);
    // Nine years still fits.
    const nine = await client.signed(ALICE, 'renewDomain', { normalizedDomainName: 'capped.com', durationInYears: 9 });
    expect(nine.status).toBe(200);
    expect((await settled(ALICE, nine.body.id)).order.status).toBe('SUCCEEDED');
  });

  it('quotes a renewal to anyone: holder, expiry, the yearly renewal price and the latest expiry allowed', async () => {
    const quote = await client.call('getRenewalQuote', { query: { normalizedDomainName: 'gifted.org' } });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ normalizedDomainName: 'gifted.org', ownerAddress: addressOf(ALICE).toLowerCase(), expiresAt: await expiryOf('gifted.org'), renewalPriceInUSDCentsPerYear: 1100 });
    expect(Date.parse(quote.body.latestExpiresAt) - Date.now()).toBeGreaterThan(9.9 * 365 * 86_400_000);
    expect((await client.call('getRenewalQuote', { query: { normalizedDomainName: 'nobody-holds-this.com' } })).status).toBe(404);
  });

  it('answers 402 when the payer’s credit is short, and 404 for a name nobody holds', async () => {
    const short = await client.signed(CAROL, 'renewDomain', { normalizedDomainName: 'renewme.com', durationInYears: 1 });
    expect(short.status).toBe(402);
    expect(short.body.data).toMatchObject({ requiredInUsdCents: 1250, balanceInUsdCents: 0, missingInUsdCents: 1250 });
    const nobody = await client.signed(ALICE, 'renewDomain', { normalizedDomainName: 'nobody-holds-this.com', durationInYears: 1 });
    expect(nobody.status).toBe(404);
  });

  it('charges a retried order once and moves the expiry once: a replayed request and the worker’s steps run again', async () => {
    const before = await balanceOf(BOB);
    const expiry = await expiryOf('renewme.com');
    const nonce = `renew-retry-${Date.now()}`;
    const created = await client.signed(BOB, 'renewDomain', { normalizedDomainName: 'renewme.com', durationInYears: 1 }, { nonce });
    expect(created.status).toBe(200);
    // The same signed request again (a client retrying after a lost answer) is refused: its nonce is spent.
    const replay = await client.signed(BOB, 'renewDomain', { normalizedDomainName: 'renewme.com', durationInYears: 1 }, { nonce });
    expect(replay.status).toBeGreaterThanOrEqual(400);
    expect(replay.status).toBeLessThan(500);
    await settled(BOB, created.body.id);
    // The worker's steps once more (another instance, or a restart that found them unfinished): no-ops.
    await startOrder(service.services, created.body.id);
    await finishOrder(service.services, created.body.id);
    expect(await balanceOf(BOB)).toBe(before - 1250);
    expect(await expiryOf('renewme.com')).toBe(addYears(expiry, 1));
    const orders = await service.services.db.query('SELECT id FROM order_items WHERE normalized_domain_name = $1 AND type = $2 AND order_id IN (SELECT id FROM orders WHERE wallet_address = $3)', [
      'renewme.com',
      'RENEW',
      addressOf(BOB).toLowerCase(),
    ]);
    expect(orders).toHaveLength(1);
  });
});
