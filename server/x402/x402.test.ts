import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { privateKeyToAccount } from 'viem/accounts';
import { getAddress } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { USD_EIP712 } from '../chain/usd-token.ts';
import { x402Kit } from '../../test/chain/x402-test-kit.ts';

// The service with CHAIN=anvil: every balance and holder below is read from the contracts, not from the service.
let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService({ CHAIN: 'anvil' });
  client = testClient(service);
}, 180_000);
afterAll(() => service?.destroy());

const { chain, usd, COM_UNITS, newKey, unique, usdBalance, holderOf, purchaseRows, fund, ask, requirementsOf, pay, handSigned, follow } = x402Kit(() => ({ service, client }));

describe('x402 purchase at production’s path', () => {
  it('answers 402 with the x402 v2 requirements for the name and duration, and writes nothing', async () => {
    const name = unique('ask');
    const required = await requirementsOf(await ask(name, { durationInYears: '2' }));
    expect(required.x402Version).toBe(2);
    expect(required.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: `eip155:${chain().chainId}`,
      amount: String(2n * COM_UNITS),
      asset: usd(),
      payTo: getAddress(chain().clients.wallet.account.address),
      maxTimeoutSeconds: 300,
      extra: { name: USD_EIP712.name, version: USD_EIP712.version },
    });
    expect(await purchaseRows()).toBe(0);
    expect((await client.call('checkAvailability', { query: { domain: name } })).body.availability).toBe(true);
  });

  it('refuses a name that cannot be bought with a 400 before asking for payment', async () => {
    const reply = await ask('taken-tld-name.notatld');
    expect(reply.status).toBe(400);
    expect(reply.headers.get('PAYMENT-REQUIRED')).toBeNull();
  });

  it('buys a name: settles on the chain, answers accepted with PAYMENT-RESPONSE, and anyone can follow it to the NFT', async () => {
    const key = newKey();
    const buyer = privateKeyToAccount(key).address;
    await fund(key);
    const name = unique('paid');
    const before = await usdBalance(buyer);
    const started = performance.now();
    const headers = await pay(key, await requirementsOf(await ask(name)));
    const reply = await ask(name, {}, headers);
    const roundTripMs = performance.now() - started;
    const body = await reply.json();
    expect(reply.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: 'accepted', domain: name, buyerWallet: buyer, nftReceivingWalletAddress: buyer });
    expect(body.estimatedCompletionSeconds).toBeGreaterThan(0);
    const settlement = decodePaymentResponseHeader(reply.headers.get('PAYMENT-RESPONSE')!);
    expect(settlement).toMatchObject({ success: true, network: `eip155:${chain().chainId}` });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await usdBalance(buyer)).toBe(before - COM_UNITS);
    console.log(`x402 round trip (402 → signed payment → accepted): ${roundTripMs.toFixed(0)} ms`);

    const done = await follow(body.purchaseId, (p) => p.orderStatus === 'SUCCEEDED');
    expect(done).toMatchObject({ purchaseId: body.purchaseId, orderId: body.orderId, refund: null, settlementTransaction: settlement.transaction });
    expect(await holderOf(name)).toBe(buyer);
    // The order shows among the payer's orders, signed in.
    const orders = await client.call('getUserOrders', { headers: client.withToken(await client.signIn(key)) });
    expect(orders.body.map((o: { normalizedDomainName: string }) => o.normalizedDomainName)).toContain(name);
  });

  it('never settles an authorization twice: the same request again, or for another name at the same price, is a 402', async () => {
    const key = newKey();
    const buyer = privateKeyToAccount(key).address;
    await fund(key);
    const first = unique('once');
    const headers = await pay(key, await requirementsOf(await ask(first)));
    expect((await ask(first, {}, headers)).status).toBe(200);
    const after = await usdBalance(buyer);
    const rows = await purchaseRows();

    const again = await ask(first, {}, headers);
    expect(again.status).toBe(402);
    expect((await again.json()).data.reason).toBe('authorization_used');
    const other = unique('other');
    const elsewhere = await ask(other, {}, headers);
    expect(elsewhere.status).toBe(402);
    expect((await elsewhere.json()).message).toMatch(/used already/);
    expect(elsewhere.headers.get('PAYMENT-REQUIRED')).not.toBeNull();
    expect(await usdBalance(buyer)).toBe(after);
    expect(await purchaseRows()).toBe(rows);
    expect((await client.call('checkAvailability', { query: { domain: other } })).body.availability).toBe(true);
  });

  it('gives the NFT to another wallet only with the payer’s SIWE token; without it a 400 and nothing is taken', async () => {
    const key = newKey();
    const buyer = privateKeyToAccount(key).address;
    const friend = privateKeyToAccount(newKey()).address;
    await fund(key);
    const name = unique('gift');
    const query = { nftReceivingWalletAddress: friend };
    const before = await usdBalance(buyer);
    const headers = await pay(key, await requirementsOf(await ask(name, query)));
    const refused = await ask(name, query, headers);
    expect(refused.status).toBe(400);
    expect((await refused.json()).data.fieldErrors.nftReceivingWalletAddress[0]).toMatch(/SIWE/);
    // Someone else's SIWE token does not do either.
    const stranger = client.withToken(await client.signIn(newKey()));
    expect((await ask(name, query, { ...headers, ...stranger })).status).toBe(400);
    expect(await usdBalance(buyer)).toBe(before);

    const own = client.withToken(await client.signIn(key));
    const reply = await ask(name, query, { ...headers, ...own });
    const body = await reply.json();
    expect(reply.status, JSON.stringify(body)).toBe(200);
    expect(body.nftReceivingWalletAddress).toBe(friend);
    await follow(body.purchaseId, (p) => p.orderStatus === 'SUCCEEDED');
    expect(await holderOf(name)).toBe(friend);
  });

  it('refuses an unfunded payer with a 402 naming the balance, and the name stays available', async () => {
    const key = newKey();
    const name = unique('broke');
    const reply = await ask(name, {}, await pay(key, await requirementsOf(await ask(name))));
    expect(reply.status).toBe(402);
    const refusal = await reply.json();
    expect(refusal.message, JSON.stringify(refusal)).toMatch(/balance/);
    expect(reply.headers.get('PAYMENT-REQUIRED')).not.toBeNull();
    expect((await client.call('checkAvailability', { query: { domain: name } })).body.availability).toBe(true);
  });

  it('refuses an expired authorization and one not valid yet', async () => {
    const key = newKey();
    const buyer = privateKeyToAccount(key).address;
    await fund(key);
    const name = unique('late');
    const [accepted] = (await requirementsOf(await ask(name))).accepts;
    const now = BigInt(Math.floor(Date.now() / 1000));
    const expired = await ask(name, {}, await handSigned(key, accepted, { validAfter: 0n, validBefore: now - 1n }));
    expect(expired.status).toBe(402);
    expect((await expired.json()).message).toMatch(/expired/);
    const early = await ask(name, {}, await handSigned(key, accepted, { validAfter: now + 600n, validBefore: now + 900n }));
    expect(early.status).toBe(402);
    expect((await early.json()).message).toMatch(/not valid yet/);
    expect(await usdBalance(buyer)).toBe(100_000_000n);
  });

  it('refuses a payment for the wrong amount or payee', async () => {
    const key = newKey();
    await fund(key);
    const name = unique('cheap');
    const [accepted] = (await requirementsOf(await ask(name))).accepts;
    const cheap = await ask(name, {}, await handSigned(key, { ...accepted, amount: '1' }, { validAfter: 0n, validBefore: BigInt(Math.floor(Date.now() / 1000) + 200) }));
    expect(cheap.status).toBe(402);
    expect((await cheap.json()).message).toMatch(/amount 1, expected 12500000/);
    const elsewhere = { ...accepted, payTo: privateKeyToAccount(newKey()).address };
    const wrongPayee = await ask(name, {}, await handSigned(key, elsewhere, { validAfter: 0n, validBefore: BigInt(Math.floor(Date.now() / 1000) + 200) }));
    expect(wrongPayee.status).toBe(402);
    expect((await wrongPayee.json()).message).toMatch(/payee/);
  });

  it('refuses a signed payment of an x402 version it does not read with a 402 (the fuzz found it answering 500)', async () => {
    const key = newKey();
    await fund(key);
    const name = unique('version');
    const [accepted] = (await requirementsOf(await ask(name))).accepts;
    const signed = await handSigned(key, accepted, { validAfter: 0n, validBefore: BigInt(Math.floor(Date.now() / 1000) + 200) });
    const payment = JSON.parse(Buffer.from(signed['PAYMENT-SIGNATURE'], 'base64').toString('utf8'));
    const rowsBefore = await purchaseRows();
    for (const x402Version of [3, -1, 1e100]) {
      const reply = await ask(name, {}, { 'PAYMENT-SIGNATURE': Buffer.from(JSON.stringify({ ...payment, x402Version })).toString('base64') });
      expect(reply.status).toBe(402);
      expect(await reply.json()).toMatchObject({ status: 402, message: expect.stringMatching(/not an x402 version 2 payload/), data: { reason: 'invalid_payload' } });
    }
    expect(await purchaseRows()).toBe(rowsBefore);
    expect((await client.call('checkAvailability', { query: { domain: name } })).body.availability).toBe(true);
  });

  it('refunds on chain a settled payment whose order fails, and the purchase says so', async () => {
    const key = newKey();
    const buyer = privateKeyToAccount(key).address;
    await fund(key);
    const name = unique('fail');
    const before = await usdBalance(buyer);
    const reply = await ask(name, {}, await pay(key, await requirementsOf(await ask(name))));
    const body = await reply.json();
    expect(reply.status, JSON.stringify(body)).toBe(200);
    // The order may fail and be refunded before this line runs, so the charge is read at the settlement's block.
    const settlement = decodePaymentResponseHeader(reply.headers.get('PAYMENT-RESPONSE')!);
    const settledIn = (await chain().clients.public.getTransactionReceipt({ hash: settlement.transaction as `0x${string}` })).blockNumber;
    expect(await usdBalance(buyer, settledIn)).toBe(before - COM_UNITS);
    const done = await follow(body.purchaseId, (p) => p.orderStatus === 'FAILED' && p.refund !== null);
    expect(done.refund).toMatchObject({ amount: String(COM_UNITS) });
    expect(done.refund.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done.failureReason).toMatch(/fail-/);
    expect(done.message).toMatch(/refunded/);
    expect(await usdBalance(buyer)).toBe(before);
  });

  it('reads the payment from X-PAYMENT-SIGNATURE too', async () => {
    const key = newKey();
    await fund(key);
    const name = unique('alias');
    const headers = await pay(key, await requirementsOf(await ask(name)));
    const reply = await ask(name, {}, { 'X-PAYMENT-SIGNATURE': headers['PAYMENT-SIGNATURE'] });
    expect(reply.status).toBe(200);
  });

  it('answers 404 for an unknown purchase', async () => {
    expect((await client.call('getX402Purchase', { params: { purchaseId: 'no-such-purchase' } })).status).toBe(404);
  });
});

describe('x402 without a chain', () => {
  it('answers a clear 403 for both operations when the service runs without CHAIN=anvil', async () => {
    const plain = await startTestService({ CHAIN: 'none' });
    try {
      const reply = await fetch(`${plain.baseUrl}/x402/domain/nochain-name.com`);
      expect(reply.status).toBe(403);
      expect((await reply.json()).message).toMatch(/CHAIN=anvil/);
      expect((await fetch(`${plain.baseUrl}/x402/purchase/anything`)).status).toBe(403);
    } finally {
      await plain.destroy();
    }
  }, 120_000);
});
