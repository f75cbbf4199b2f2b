import { afterAll, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, TEST_KEYS } from '../../test/support/client.ts';

const KEY = TEST_KEYS[0];
let service: TestService | undefined;
afterAll(() => service?.destroy());

// Registration takes ten minutes at first, so the order is certainly in PROCESSING when the service stops.
const SLOW = { ORDER_PROCESSING_MS: '600000' };

it('finishes an order exactly once after the service restarts in the middle of it', { timeout: 120_000 }, async () => {
  service = await startTestService(SLOW);
  let client = testClient(service);
  let token = await client.signIn(KEY);
  await client.call('requestFaucet', { body: {}, headers: client.withToken(token) });

  const created = await client.signed(KEY, 'registerWithRecords', {
    normalizedDomainName: 'survives-restart.com',
    durationInYears: 1,
    records: [{ name: '@', type: 'TXT', rdata: '"hello"', ttl: 300 }],
  });
  expect(created.status).toBe(200);
  const orderId = created.body.id;
  await vi.waitFor(
    async () => {
      const reply = await client.call('getOrder', { params: { orderId }, headers: client.withToken(token) });
      expect(reply.body.order.status).toBe('PROCESSING');
    },
    { timeout: 5000, interval: 20 },
  );

  service = await service.restart(SLOW);
  client = testClient(service);
  token = await client.signIn(KEY);
  const during = await client.call('getOrder', { params: { orderId }, headers: client.withToken(token) });
  expect(during.body.order.status).toBe('PROCESSING');
  expect(during.body.payments).toHaveLength(1);

  // Started again with a short processing time: the order is overdue and finishes, charged once.
  service = await service.restart({ ORDER_PROCESSING_MS: '50' });
  client = testClient(service);
  token = await client.signIn(KEY);

  const done = await vi.waitFor(
    async () => {
      const reply = await client.call('getOrder', { params: { orderId }, headers: client.withToken(token) });
      expect(reply.body.order.status).toBe('SUCCEEDED');
      return reply.body;
    },
    { timeout: 10_000, interval: 50 },
  );
  expect(done.payments).toHaveLength(1);
  expect(done.order.startedAt).toBe(during.body.order.startedAt);
  const balance = await client.call('getBalance', { headers: client.withToken(token) });
  expect(balance.body.totalBalanceInUsdCents).toBe(10_000 - 1250);
  const domains = await client.call('getUserDomains', { headers: client.withToken(token) });
  expect(domains.body.map((d: { normalizedDomainName: string }) => d.normalizedDomainName)).toEqual(['survives-restart.com']);
  const zone = await client.call('getDnsRecords', { query: { zoneName: 'survives-restart.com' } });
  expect(zone.body.filter((r: { type: string }) => r.type === 'TXT').map((r: { rdata: string }) => r.rdata)).toEqual(['"hello"']);
});
