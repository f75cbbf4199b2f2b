import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { recordIntent, type SignedAuthorization } from './purchase-store.ts';
import { NEVER_SETTLED, recoverPurchases } from './recover.ts';
import { x402Kit } from '../../test/chain/x402-test-kit.ts';

// A crash leaves a purchase where the request stopped: its intent written, its payment settled or not, its order
// not written. These put a purchase in each state with the service's own steps, then run the start-up recovery.
let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService({ CHAIN: 'anvil' });
  client = testClient(service);
}, 180_000);
afterAll(() => service?.destroy());

const { COM_UNITS, newKey, unique, usdBalance, holderOf, fund, ask, requirementsOf, pay, follow } = x402Kit(() => ({ service, client }));
const rail = () => service.services.x402!;
const recover = () => recoverPurchases({ db: service.services.db, rail: rail(), now: () => new Date(), ownsNode: true });
const purchase = async (purchaseId: string) => (await client.call('getX402Purchase', { params: { purchaseId } })).body;
const ordersOf = async (name: string) =>
  (await service.services.db.query<{ order_id: string }>('SELECT order_id FROM order_items WHERE normalized_domain_name = $1', [name])).map((r) => r.order_id);

/** A wallet's signed payment for `name`, and the purchase's intent as the request records it before settling. */
async function intent(key: Hex, name: string): Promise<{ id: string; payload: PaymentPayload }> {
  const headers = await pay(key, await requirementsOf(await ask(name)));
  const payload = decodePaymentSignatureHeader(headers['PAYMENT-SIGNATURE']);
  const payment = payload.payload as unknown as SignedAuthorization;
  const id = randomUUID();
  await recordIntent(service.services.db, {
    id,
    payer: payment.authorization.from,
    name,
    years: 1,
    receiver: payment.authorization.from,
    amountUnits: payment.authorization.value,
    network: rail().network,
    asset: rail().asset,
    payment,
    now: new Date(),
  });
  return { id, payload };
}

/** Settles the payment as the request does (the service as facilitator), leaving the order unwritten. */
async function settle(payload: PaymentPayload): Promise<string> {
  const settled = await rail().resourceServer.settlePayment(payload, payload.accepted);
  expect(settled.success, settled.errorReason).toBe(true);
  return settled.transaction;
}

const authorizationUsed = (payload: PaymentPayload) => {
  const { from, nonce } = (payload.payload as unknown as SignedAuthorization).authorization;
  return rail().usd.authorizationUsed(from, nonce as Hex);
};

describe('x402 purchases a crash left between states, at start-up', () => {
  it('marks an intent whose settlement never landed failed, with nothing taken and the name still available', async () => {
    const key = newKey();
    const buyer = privateKeyToAccount(key).address;
    await fund(key);
    const name = unique('unsettled');
    const { id, payload } = await intent(key, name);
    const before = await usdBalance(buyer);

    expect(await recover()).toEqual({ ordered: 0, refunded: 0, failed: 1, left: 0 });
    expect(await purchase(id)).toMatchObject({ purchaseId: id, orderId: null, orderStatus: null, refund: null, failureReason: NEVER_SETTLED, settlementTransaction: null });
    expect((await purchase(id)).message).toMatch(/never settled; nothing was taken/);
    expect(await usdBalance(buyer)).toBe(before);
    expect(await authorizationUsed(payload)).toBe(false);
    expect(await ordersOf(name)).toEqual([]);
    expect((await client.call('checkAvailability', { query: { domain: name } })).body.availability).toBe(true);
    // Finished: a second start leaves it as it is.
    expect(await recover()).toEqual({ ordered: 0, refunded: 0, failed: 0, left: 0 });
  });

  it('gives a settled purchase without an order its order once; a second recovery creates nothing', async () => {
    const key = newKey();
    const buyer = privateKeyToAccount(key).address;
    await fund(key);
    const name = unique('settled');
    const { id, payload } = await intent(key, name);
    const before = await usdBalance(buyer);
    const transaction = await settle(payload);
    expect(await usdBalance(buyer)).toBe(before - COM_UNITS);

    expect(await recover()).toEqual({ ordered: 1, refunded: 0, failed: 0, left: 0 });
    const [orderId] = await ordersOf(name);
    expect(await ordersOf(name)).toEqual([orderId]);
    expect(await purchase(id)).toMatchObject({ orderId, settlementTransaction: transaction, refund: null, failureReason: null });

    expect(await recover()).toEqual({ ordered: 0, refunded: 0, failed: 0, left: 0 });
    expect(await ordersOf(name)).toEqual([orderId]);
    service.services.notifyOrders();
    await follow(id, (p) => p.orderStatus === 'SUCCEEDED');
    expect(await holderOf(name)).toBe(buyer);
    expect(await usdBalance(buyer)).toBe(before - COM_UNITS);
  });

  it('refunds once a settled purchase whose name was taken before its order was written', async () => {
    const first = newKey();
    const key = newKey();
    const buyer = privateKeyToAccount(key).address;
    await Promise.all([fund(first), fund(key)]);
    const name = unique('raced');
    const { id, payload } = await intent(key, name);
    const before = await usdBalance(buyer);
    await settle(payload);
    // Someone else buys the name while the purchase waits for its start-up.
    const bought = await ask(name, {}, await pay(first, await requirementsOf(await ask(name))));
    expect(bought.status).toBe(200);

    expect(await recover()).toEqual({ ordered: 0, refunded: 1, failed: 0, left: 0 });
    const after = await purchase(id);
    expect(after).toMatchObject({ orderId: null, refund: { amount: String(COM_UNITS) } });
    expect(after.failureReason).toMatch(/not available/);
    expect(await usdBalance(buyer)).toBe(before);
    expect(await recover()).toEqual({ ordered: 0, refunded: 0, failed: 0, left: 0 });
    expect(await usdBalance(buyer)).toBe(before);
  });

  it('leaves a purchase whose order was written unchanged', async () => {
    const key = newKey();
    await fund(key);
    const name = unique('ordered');
    const reply = await ask(name, {}, await pay(key, await requirementsOf(await ask(name))));
    const body = await reply.json();
    expect(reply.status, JSON.stringify(body)).toBe(200);
    const row = async () => (await service.services.db.query('SELECT * FROM x402_purchases WHERE id = $1', [body.purchaseId]))[0];
    const stored = await row();
    expect(stored).toMatchObject({ status: 'SETTLED', order_id: body.orderId });

    expect(await recover()).toEqual({ ordered: 0, refunded: 0, failed: 0, left: 0 });
    expect(await row()).toEqual(stored);
    expect(await ordersOf(name)).toEqual([body.orderId]);
  });
});
