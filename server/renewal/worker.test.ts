import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { registerAndWait } from '../../test/support/orders.ts';
import type { Services } from '../services.ts';
import { autoRenewRound } from './worker.ts';

// The auto-renew worker against the real service, its clock moved by handing the worker a Services whose now() is
// later (the service's own worker polls once a minute on the real clock, so it never sees these domains due).
let service: TestService;
let client: TestClient;
const DAY = 86_400_000;

const session = async (key: Hex) => client.withToken(await client.signIn(key));
const balanceOf = async (key: Hex): Promise<number> => (await client.call('getBalance', { headers: await session(key) })).body.totalBalanceInUsdCents;
const expiryOf = async (name: string) => {
  const [row] = await service.services.db.query<{ expires_at: Date }>('SELECT expires_at FROM domains WHERE name = $1', [name]);
  return new Date(row.expires_at);
};
const at = (when: Date): Services => ({ ...service.services, now: () => new Date(when) });
const autoOrders = (name: string) =>
  service.services.db.query<{ id: string; status: string }>(
    `SELECT o.id, o.status FROM orders o JOIN order_items i ON i.order_id = o.id WHERE i.normalized_domain_name = $1 AND i.type = 'RENEW' AND o.metadata->>'autoRenew' = 'true'`,
    [name],
  );
const settledOrders = (name: string) =>
  vi.waitFor(
    async () => {
      const rows = await autoOrders(name);
      if (rows.some((r) => r.status === 'CREATED' || r.status === 'PROCESSING')) throw new Error('pending');
      return rows;
    },
    { timeout: 15_000, interval: 25 },
  );
async function autoRenewOn(key: Hex, name: string, years = 1) {
  const reply = await client.signed(key, 'setAutoRenew', { normalizedDomainName: name, enabled: true, durationInYears: years });
  expect(reply.status).toBe(200);
}

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
}, 180_000);
afterAll(() => service?.destroy());

describe('the auto-renew worker', () => {
  it('renews once and charges once when two workers race for the same domain', { timeout: 90_000 }, async () => {
    const key = generatePrivateKey();
    expect((await client.call('requestFaucet', { body: {}, headers: await session(key) })).status).toBe(200);
    await registerAndWait(client, key, 'racer.com');
    await autoRenewOn(key, 'racer.com');
    const [expiry, balance] = [await expiryOf('racer.com'), await balanceOf(key)];

    // Not yet due 31 days before expiry (AUTO_RENEW_DAYS is 30).
    expect((await autoRenewRound(at(new Date(expiry.getTime() - 31 * DAY))))['racer.com']).toBeUndefined();
    const due = at(new Date(expiry.getTime() - 29 * DAY));
    const rounds = await Promise.all([autoRenewRound(due), autoRenewRound(due), autoRenewRound(due)]);
    expect(rounds.map((r) => r['racer.com']).filter((o) => o === 'renewed')).toHaveLength(1);

    const orders = await settledOrders('racer.com');
    expect(orders).toEqual([expect.objectContaining({ status: 'SUCCEEDED' })]);
    expect(await balanceOf(key)).toBe(balance - 1250);
    const renewed = new Date(expiry);
    renewed.setUTCFullYear(renewed.getUTCFullYear() + 1);
    expect((await expiryOf('racer.com')).toISOString()).toBe(renewed.toISOString());
    // Again at the same moment: the expiry moved, nothing is due.
    expect((await autoRenewRound(due))['racer.com']).toBeUndefined();
    expect(await autoOrders('racer.com')).toHaveLength(1);
    const setting = (await client.call('getAutoRenew', { query: { normalizedDomainName: 'racer.com' } })).body;
    expect(setting.lastAttempt).toMatchObject({ outcome: 'renewed', orderId: orders[0].id, reason: null });
    expect(setting.nextAttemptAt).toBe(new Date(renewed.getTime() - 30 * DAY).toISOString());
  });

  it('short of credit: says so in lastAttempt, tries again a day later, and renews once topped up', { timeout: 90_000 }, async () => {
    const key = generatePrivateKey();
    expect((await client.call('requestFaucet', { body: {}, headers: await session(key) })).status).toBe(200);
    // 2 years of .io (45.00 a year) leave 10.00: short of a 45.00 renewal.
    await registerAndWait(client, key, 'shorty.io', { fields: { durationInYears: 2 } });
    await autoRenewOn(key, 'shorty.io');
    const expiry = await expiryOf('shorty.io');
    const first = new Date(expiry.getTime() - 29 * DAY);

    expect((await autoRenewRound(at(first)))['shorty.io']).toBe('short-of-credit');
    const setting = (await client.call('getAutoRenew', { query: { normalizedDomainName: 'shorty.io' } })).body;
    expect(setting.lastAttempt).toMatchObject({ at: first.toISOString(), outcome: 'short-of-credit', orderId: null });
    expect(setting.lastAttempt.reason).toContain('35.00 USD missing');
    expect(setting.nextAttemptAt).toBe(new Date(first.getTime() + DAY).toISOString());
    expect(await autoOrders('shorty.io')).toHaveLength(0);
    const listed = async () => ((await client.call('getUserDomains', { headers: await session(key) })).body as { normalizedDomainName: string; autoRenewShortOfCredit?: boolean }[]).find((d) => d.normalizedDomainName === 'shorty.io');
    expect((await listed())?.autoRenewShortOfCredit).toBe(true);

    // Topped up; an hour later it is not tried yet, a day later it renews.
    expect((await client.call('requestFaucet', { body: {}, headers: await session(key) })).status).toBe(200);
    expect((await autoRenewRound(at(new Date(first.getTime() + 3_600_000))))['shorty.io']).toBeUndefined();
    expect((await autoRenewRound(at(new Date(first.getTime() + DAY + 60_000))))['shorty.io']).toBe('renewed');
    expect(await settledOrders('shorty.io')).toEqual([expect.objectContaining({ status: 'SUCCEEDED' })]);
    expect(await balanceOf(key)).toBe(1000 + 10_000 - 4500);
    const after = (await client.call('getAutoRenew', { query: { normalizedDomainName: 'shorty.io' } })).body;
    expect(after.lastAttempt).toMatchObject({ outcome: 'renewed', reason: null });
    expect((await listed())?.autoRenewShortOfCredit).toBe(false);
  });
});
