import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, testClient, TEST_KEYS } from '../../test/support/client.ts';
import { insertOrder } from '../../test/support/orders.ts';
import { finishOrder, startOrder } from './processing.ts';

let service: TestService;
beforeAll(async () => {
  // The worker would take ten minutes to register: these tests drive the steps themselves.
  service = await startTestService({ ORDER_PROCESSING_MS: '600000' });
});
afterAll(() => service.destroy());

const insertCreatedOrder = (wallet: string, name: string, cents: number) => insertOrder(service.services.db, { wallet, name, cents });
const details = async (id: string, key: Hex = TEST_KEYS[2]) => {
  const client = testClient(service);
  const reply = await client.call('getOrder', { params: { orderId: id }, headers: client.withToken(await client.signIn(key)) });
  return reply.body;
};

describe('order steps', () => {
  it('fails an order whose balance cannot pay when processing starts: items CANCELLED, nothing charged', async () => {
    const wallet = addressOf(TEST_KEYS[2]).toLowerCase();
    const id = await insertCreatedOrder(wallet, 'cannot-pay.com', 1250);
    await startOrder(service.services, id);
    const body = await details(id);
    expect(body.order).toMatchObject({ status: 'FAILED', metadata: { failureDetails: 'The balance (0.00 USD) could not pay 12.50 USD' } });
    expect(body.order.finishedAt).not.toBeNull();
    expect(body.items.map((i: { status: string }) => i.status)).toEqual(['CANCELLED']);
    expect(body.payments).toEqual([]);
    expect((await testClient(service).call('checkAvailability', { query: { domain: 'cannot-pay.com' } })).body.availability).toBe(true);
  });

  it('runs each step once however often it is called: one charge, one mint', async () => {
    const client = testClient(service);
    const key = TEST_KEYS[1];
    const headers = client.withToken(await client.signIn(key));
    await client.call('requestFaucet', { body: {}, headers });
    const created = await client.signed(key, 'registerDomain', { normalizedDomainName: 'only-once.org', durationInYears: 1 });
    expect(created.status).toBe(200);
    await Promise.all([startOrder(service.services, created.body.id), startOrder(service.services, created.body.id)]);
    await Promise.all([finishOrder(service.services, created.body.id), finishOrder(service.services, created.body.id)]);
    await startOrder(service.services, created.body.id);
    const body = await details(created.body.id, key);
    expect(body.order.status).toBe('SUCCEEDED');
    expect(body.payments).toHaveLength(1);
    expect((await client.call('getBalance', { headers })).body.totalBalanceInUsdCents).toBe(10_000 - 1100);
    expect((await client.call('getUserDomains', { headers })).body.map((d: { normalizedDomainName: string }) => d.normalizedDomainName)).toEqual(['only-once.org']);
  });

  it('lets only one of two simultaneous orders for a name through: the other is 409', async () => {
    const client = testClient(service);
    const [a, b] = [TEST_KEYS[0], TEST_KEYS[1]];
    await client.call('requestFaucet', { body: {}, headers: client.withToken(await client.signIn(a)) });
    const replies = await Promise.all([a, b].map((key) => client.signed(key, 'registerDomain', { normalizedDomainName: 'one-winner.io', durationInYears: 1 })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});
