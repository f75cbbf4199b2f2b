import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, testClient, TEST_KEYS, type TestClient } from '../../test/support/client.ts';
import { tokenIdOf } from '../ownership/ownership.ts';
import { isTerminal } from '#core/wire/orders.ts';

const [ALICE, BOB, CAROL] = TEST_KEYS;
let service: TestService;
let client: TestClient;
const tokens = new Map<Hex, string>();

async function session(key: Hex): Promise<Record<string, string>> {
  if (!tokens.has(key)) tokens.set(key, await client.signIn(key));
  return client.withToken(tokens.get(key)!);
}
async function fund(key: Hex, times = 1) {
  for (let i = 0; i < times; i++) expect((await client.call('requestFaucet', { body: {}, headers: await session(key) })).status).toBe(200);
}
async function balanceOf(key: Hex): Promise<number> {
  return (await client.call('getBalance', { headers: await session(key) })).body.totalBalanceInUsdCents;
}
async function orderDetails(key: Hex, orderId: string) {
  return client.call('getOrder', { params: { orderId }, headers: await session(key) });
}
async function settled(key: Hex, orderId: string) {
  return vi.waitFor(
    async () => {
      const reply = await orderDetails(key, orderId);
      if (!isTerminal(reply.body.order.status)) throw new Error(`still ${reply.body.order.status}`);
      return reply.body;
    },
    { timeout: 10_000, interval: 20 },
  );
}

beforeAll(async () => {
  service = await startTestService({ ORDER_PROCESSING_MS: '150' });
  client = testClient(service);
  await fund(ALICE, 3);
  await fund(BOB);
});
afterAll(() => service.destroy());

describe('registerDomain', () => {
  it('goes CREATED → PROCESSING → SUCCEEDED, charges the balance once and mints to the payer', async () => {
    const before = await balanceOf(ALICE);
    const created = await client.signed(ALICE, 'registerDomain', { normalizedDomainName: 'lifecycle.com', durationInYears: 2 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      status: 'CREATED',
      amountInUSDCents: 2500,
      nftWalletAddress: addressOf(ALICE).toLowerCase(),
      nftChainId: 31337,
      startedAt: null,
      finishedAt: null,
      items: [{ normalizedDomainName: 'lifecycle.com', type: 'REGISTER', durationInYears: 2, amountInUSDCents: 2500, status: 'CREATED' }],
    });
    expect(created.body.items[0].orderId).toBe(created.body.id);

    const seen = new Set<string>();
    const done = await vi.waitFor(
      async () => {
        const { body } = await orderDetails(ALICE, created.body.id);
        seen.add(body.order.status);
        if (!isTerminal(body.order.status)) throw new Error('not yet');
        return body;
      },
      { timeout: 10_000, interval: 10 },
    );
    expect(seen.has('PROCESSING')).toBe(true);
    expect(done.order.status).toBe('SUCCEEDED');
    expect(done.items.map((i: { status: string }) => i.status)).toEqual(['SUCCEEDED']);
    const { startedAt, finishedAt, createdAt } = done.order;
    expect(Date.parse(startedAt)).toBeGreaterThanOrEqual(Date.parse(createdAt));
    expect(Date.parse(finishedAt) - Date.parse(startedAt)).toBeGreaterThanOrEqual(150);
    expect(done.payments).toEqual([expect.objectContaining({ amountInUSDCents: 2500, status: 'COMPLETED', paymentProvider: 'CREDIT' })]);
    expect(await balanceOf(ALICE)).toBe(before - 2500);

    const availability = await client.call('checkAvailability', { query: { domain: 'lifecycle.com' } });
    expect(availability.body).toMatchObject({ availability: false, reason: 'lifecycle.com is already registered' });
    const domains = await client.call('getUserDomains', { headers: await session(ALICE) });
    const domain = domains.body.find((d: { normalizedDomainName: string }) => d.normalizedDomainName === 'lifecycle.com');
    expect(domain).toMatchObject({
      chainId: 31337,
      ownerAddress: addressOf(ALICE).toLowerCase(),
      tokenId: tokenIdOf('lifecycle.com'),
      dnsStatus: { isParkingEnabled: true, hasWebRecords: true, hasMxRecords: false },
    });
    expect(new Date(domain.expirationDate).getUTCFullYear()).toBe(new Date().getUTCFullYear() + 2);
    expect((await client.call('isDomainParked', { query: { normalizedDomainName: 'lifecycle.com' } })).body).toEqual({ parked: true });
  });

  it('mints to the NFT receiving wallet when one is given', async () => {
    const receiver = addressOf(CAROL);
    const created = await client.signed(ALICE, 'registerDomain', {
      normalizedDomainName: 'gift-for-carol.xyz',
      durationInYears: 1,
      nftReceivingWallet: { walletAddress: receiver, chainId: 31337 },
    });
    expect(created.status).toBe(200);
    expect(created.body.nftWalletAddress).toBe(receiver.toLowerCase());
    expect((await settled(ALICE, created.body.id)).order.status).toBe('SUCCEEDED');
    const carolDomains = await client.call('getUserDomains', { headers: await session(CAROL) });
    expect(carolDomains.body.map((d: { normalizedDomainName: string }) => d.normalizedDomainName)).toEqual(['gift-for-carol.xyz']);
  });

  it('fails a fail- name at registration, says why and refunds the charge', async () => {
    const before = await balanceOf(ALICE);
    const created = await client.signed(ALICE, 'registerDomain', { normalizedDomainName: 'fail-on-purpose.com', durationInYears: 1 });
    expect(created.status).toBe(200);
    const done = await settled(ALICE, created.body.id);
    expect(done.order.status).toBe('FAILED');
    expect(done.order.finishedAt).not.toBeNull();
    expect(done.order.metadata.failureDetails).toMatch(/refused fail-on-purpose\.com/);
    expect(done.items[0]).toMatchObject({ status: 'FAILED', metadata: { failureDetails: expect.stringMatching(/fail-/) } });
    expect(done.payments).toEqual([expect.objectContaining({ amountInUSDCents: 1250, status: 'REFUNDED' })]);
    expect(await balanceOf(ALICE)).toBe(before);
    expect((await client.call('checkAvailability', { query: { domain: 'fail-on-purpose.com' } })).body.availability).toBe(true);
  });

  it('answers 402 with what is missing, counting what pending orders hold', async () => {
    // Bob has 100.00: 90.00 for two years of .io leaves 10.00, short of a 12.50 .com.
    const first = await client.signed(BOB, 'registerDomain', { normalizedDomainName: 'bobs-big.io', durationInYears: 2 });
    expect(first.status).toBe(200);
    const second = await client.signed(BOB, 'registerDomain', { normalizedDomainName: 'bobs-small.com', durationInYears: 1 });
    expect(second.status).toBe(402);
    expect(second.body).toMatchObject({ code: 'PAYMENT_REQUIRED', status: 402, defined: true });
    expect(second.body.message).toMatch(/2\.50 USD missing/);
    expect((await client.call('checkAvailability', { query: { domain: 'bobs-small.com' } })).body.availability).toBe(true);
    await settled(BOB, first.body.id);
  });

  it('answers 402 to a wallet that has no credit at all', async () => {
    const reply = await client.signed(CAROL, 'registerDomain', { normalizedDomainName: 'no-money.com', durationInYears: 1 });
    expect(reply.status).toBe(402);
    expect(reply.body.message).toMatch(/12\.50 USD missing/);
  });

  it('refuses durations outside the range on durationInYears', async () => {
    for (const durationInYears of [0, 11, 1.5]) {
      // 1.5 cannot be signed as a uint256: it is sent in place of a signed 1, and refused before the signature is checked.
      const reply = await client.signed(ALICE, 'registerDomain', { normalizedDomainName: 'duration.com', durationInYears: Math.floor(durationInYears) }, {
        tamper: (e) => ({ ...e, payload: { ...e.payload, durationInYears } }),
      });
      expect(reply.status, `${durationInYears} years`).toBe(400);
      expect(Object.keys(reply.body.data.fieldErrors)).toEqual(['durationInYears']);
    }
    const eleven = await client.signed(ALICE, 'registerDomain', { normalizedDomainName: 'duration.com', durationInYears: 11 });
    expect(eleven.body.data.fieldErrors.durationInYears).toEqual(['duration.com registers for 1 to 10 years']);
  });

  it('refuses a TLD that is not sold and a name that is not normalized', async () => {
    const museum = await client.signed(ALICE, 'registerDomain', { normalizedDomainName: 'art.museum', durationInYears: 1 });
    expect(museum.status).toBe(400);
    expect(museum.body.data.fieldErrors.normalizedDomainName).toEqual(['.museum names are not sold here']);
    const www = await client.signed(ALICE, 'registerDomain', { normalizedDomainName: 'www.shop.com', durationInYears: 1 });
    expect(www.status).toBe(400);
    expect(www.body.data.fieldErrors.normalizedDomainName).toEqual(['Send the normalized name: shop.com']);
  });

  it('answers 409 when the name was taken between search and order', async () => {
    await fund(BOB);
    expect((await client.call('checkAvailability', { query: { domain: 'contested.org' } })).body.availability).toBe(true);
    const bobs = await client.signed(BOB, 'registerDomain', { normalizedDomainName: 'contested.org', durationInYears: 1 });
    expect(bobs.status).toBe(200);
    const pending = await client.signed(ALICE, 'registerDomain', { normalizedDomainName: 'contested.org', durationInYears: 1 });
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ code: 'CONFLICT', message: 'contested.org is not available any more: contested.org has a pending order' });
    await settled(BOB, bobs.body.id);
    const taken = await client.signed(ALICE, 'registerDomain', { normalizedDomainName: 'contested.org', durationInYears: 1 });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/already registered/);
    const reserved = await client.signed(ALICE, 'registerDomain', { normalizedDomainName: 'google.com', durationInYears: 1 });
    expect(reserved.status).toBe(409);
  });

  it('needs a signature or an API key: a SIWE session alone cannot register', async () => {
    const anonymous = await client.call('registerDomain', { body: { normalizedDomainName: 'anon.com', durationInYears: 1 } });
    expect(anonymous.status).toBe(401);
    const siwe = await client.call('registerDomain', { body: { normalizedDomainName: 'anon.com', durationInYears: 1 }, headers: await session(ALICE) });
    expect(siwe.status).toBe(401);
  });

  it('works with an API key, which pays from the wallet that created it', async () => {
    const key = await client.call('createApiKey', { body: { label: 'orders test' }, headers: await session(ALICE) });
    expect(key.status).toBe(200);
    const reply = await client.call('registerDomain', { body: { normalizedDomainName: 'by-api-key.dev', durationInYears: 1 }, headers: client.withApiKey(key.body.key) });
    expect(reply.status).toBe(200);
    expect(reply.body.nftWalletAddress).toBe(addressOf(ALICE).toLowerCase());
    expect((await settled(ALICE, reply.body.id)).order.status).toBe('SUCCEEDED');
  });
});

describe('registerWithRecords', () => {
  it('applies the initial records; an apex address means the domain starts unparked', async () => {
    const records = [
      { name: '@', type: 'A', rdata: '192.0.2.10', ttl: 300 },
      { name: '@', type: 'MX', rdata: '10 mail.example.net.', ttl: 3600 },
      { name: 'www', type: 'CNAME', rdata: 'with-records.com.', ttl: 3600 },
    ];
    const created = await client.signed(ALICE, 'registerWithRecords', { normalizedDomainName: 'with-records.com', durationInYears: 1, records });
    expect(created.status).toBe(200);
    expect((await settled(ALICE, created.body.id)).order.status).toBe('SUCCEEDED');
    const zone = await client.call('getDnsRecords', { query: { zoneName: 'with-records.com' } });
    expect(zone.body.map((r: { name: string; type: string; rdata: string }) => `${r.name} ${r.type} ${r.rdata}`).sort()).toEqual([
      '@ A 192.0.2.10',
      '@ MX 10 mail.example.net.',
      'www CNAME with-records.com.',
    ]);
    expect((await client.call('isDomainParked', { query: { normalizedDomainName: 'with-records.com' } })).body).toEqual({ parked: false });
    const domains = await client.call('getUserDomains', { headers: await session(ALICE) });
    expect(domains.body.find((d: { normalizedDomainName: string }) => d.normalizedDomainName === 'with-records.com').dnsStatus).toEqual({
      isParkingEnabled: false,
      hasWebRecords: true,
      hasMxRecords: true,
      isForwardingEnabled: false,
      isDnssecEnabled: false,
    });
  });

  it('ends PARTIALLY_COMPLETED when the records clash: the domain is registered, parked, without them', async () => {
    const records = [
      { name: 'www', type: 'CNAME', rdata: 'elsewhere.example.net.', ttl: 3600 },
      { name: 'www', type: 'A', rdata: '192.0.2.20', ttl: 3600 },
      { name: '@', type: 'AAAA', rdata: '2001:db8::1', ttl: 3600 },
    ];
    const before = await balanceOf(ALICE);
    const created = await client.signed(ALICE, 'registerWithRecords', { normalizedDomainName: 'clashing.net', durationInYears: 1, records });
    expect(created.status).toBe(200);
    const done = await settled(ALICE, created.body.id);
    expect(done.order.status).toBe('PARTIALLY_COMPLETED');
    expect(done.order.metadata.failureDetails).toMatch(/clashing\.net is registered, but its initial records could not be applied/);
    expect(done.items[0].status).toBe('PARTIALLY_COMPLETED');
    expect(done.payments).toEqual([expect.objectContaining({ amountInUSDCents: 1400, status: 'COMPLETED' })]);
    expect(await balanceOf(ALICE)).toBe(before - 1400);
    const zone = await client.call('getDnsRecords', { query: { zoneName: 'clashing.net' } });
    expect(zone.body.every((r: { metadata: { managed?: boolean } }) => r.metadata?.managed === true)).toBe(true);
    expect((await client.call('isDomainParked', { query: { normalizedDomainName: 'clashing.net' } })).body).toEqual({ parked: true });
    expect((await client.call('checkAvailability', { query: { domain: 'clashing.net' } })).body.availability).toBe(false);
  });

  it('refuses a bad record up front with its field path, and creates no order', async () => {
    const records = [
      { name: '@', type: 'A', rdata: '192.0.2.1', ttl: 300 },
      { name: 'www', type: 'A', rdata: 'not-an-address', ttl: 300 },
    ];
    const reply = await client.signed(ALICE, 'registerWithRecords', { normalizedDomainName: 'bad-records.com', durationInYears: 1, records });
    expect(reply.status).toBe(400);
    expect(Object.keys(reply.body.data.fieldErrors)).toEqual(['records.1.rdata']);
    expect((await client.call('checkAvailability', { query: { domain: 'bad-records.com' } })).body.availability).toBe(true);
    const negativeTtl = await client.signed(
      ALICE,
      'registerWithRecords',
      { normalizedDomainName: 'bad-records.com', durationInYears: 1, records: [{ name: '@', type: 'A', rdata: '192.0.2.1', ttl: 1 }] },
      { tamper: (e) => ({ ...e, payload: { ...e.payload, records: [{ ...e.payload.records[0], ttl: -1 }] } }) },
    );
    expect(negativeTtl.status).toBe(400);
    expect(Object.keys(negativeTtl.body.data.fieldErrors)).toEqual(['records.0.ttl']);
  });
});

describe('getOrder and the user lists', () => {
  it("answers 401 for someone else's order and 404 for an unknown one", async () => {
    const created = await client.signed(ALICE, 'registerDomain', { normalizedDomainName: 'private-order.org', durationInYears: 1 });
    expect(created.status).toBe(200);
    const bob = await orderDetails(BOB, created.body.id);
    expect(bob.status).toBe(401);
    expect(bob.body.message).toBe('This order belongs to another wallet');
    expect((await orderDetails(ALICE, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await orderDetails(ALICE, 'not-an-id')).status).toBe(404);
    expect((await client.call('getOrder', { params: { orderId: created.body.id } })).status).toBe(401);
    await settled(ALICE, created.body.id);
  });

  it('lists the caller\u2019s order items newest first, and only theirs', async () => {
    const a = await client.signed(CAROL, 'registerDomain', { normalizedDomainName: 'fail-first.com', durationInYears: 1 });
    expect(a.status).toBe(402);
    await fund(CAROL);
    const first = await client.signed(CAROL, 'registerDomain', { normalizedDomainName: 'carol-one.com', durationInYears: 1 });
    const second = await client.signed(CAROL, 'registerDomain', { normalizedDomainName: 'carol-two.com', durationInYears: 1 });
    const list = await client.call('getUserOrders', { headers: await session(CAROL) });
    expect(list.status).toBe(200);
    expect(list.body.map((i: { orderId: string }) => i.orderId)).toEqual([second.body.id, first.body.id]);
    expect((await client.call('getUserOrders')).status).toBe(401);
    await settled(CAROL, first.body.id);
    await settled(CAROL, second.body.id);
    expect((await client.call('getUserDomains')).status).toBe(401);
  });
});
