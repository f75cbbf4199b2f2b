import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, testClient, TEST_KEYS } from '../../test/support/client.ts';

const [ALICE, BOB] = TEST_KEYS;
const services: TestService[] = [];
async function start(env: Record<string, string> = {}) {
  const service = await startTestService(env);
  services.push(service);
  return testClient(service);
}
afterAll(() => Promise.all(services.map((s) => s.destroy())));

describe('balance and faucet', () => {
  let client: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    client = await start();
  });

  it('starts at zero, and the faucet credits 100.00 before it answers', async () => {
    const headers = client.withToken(await client.signIn(ALICE));
    const alice = addressOf(ALICE).toLowerCase();
    const empty = await client.call('getBalance', { headers });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ balances: [{ chainId: 31337, walletAddress: alice, balanceInUsdCents: 0 }], totalBalanceInUsdCents: 0 });

    const grant = await client.call('requestFaucet', { body: {}, headers });
    expect(grant.status).toBe(200);
    expect(grant.body).toEqual({ status: 'completed', walletAddress: alice, nextEligibleAt: null });
    expect((await client.call('getBalance', { headers })).body.totalBalanceInUsdCents).toBe(10_000);

    expect((await client.call('requestFaucet', { body: {}, headers })).status).toBe(200);
    expect((await client.call('getBalance', { headers })).body.totalBalanceInUsdCents).toBe(20_000);
  });

  it('credits the wallet named in the request', async () => {
    const headers = client.withToken(await client.signIn(ALICE));
    const bob = addressOf(BOB);
    const grant = await client.call('requestFaucet', { body: { walletAddress: bob }, headers });
    expect(grant.body.walletAddress).toBe(bob.toLowerCase());
    const bobHeaders = client.withToken(await client.signIn(BOB));
    expect((await client.call('getBalance', { headers: bobHeaders })).body.totalBalanceInUsdCents).toBe(10_000);
  });

  it('needs a credential, and refuses a malformed wallet on its field', async () => {
    expect((await client.call('getBalance')).status).toBe(401);
    expect((await client.call('requestFaucet', { body: {} })).status).toBe(401);
    const headers = client.withToken(await client.signIn(ALICE));
    const bad = await client.call('requestFaucet', { body: { walletAddress: '0x123' }, headers });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fieldErrors.walletAddress).toBeDefined();
  });
});

describe('faucet settings', () => {
  let cooling: Awaited<ReturnType<typeof start>>;
  let disabled: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    [cooling, disabled] = await Promise.all([start({ FAUCET_COOLDOWN_S: '3600' }), start({ FAUCET_ENABLED: 'false' })]);
  });

  it('answers 429 with Retry-After and nextEligibleAt during the cooldown', async () => {
    const client = cooling;
    const headers = client.withToken(await client.signIn(ALICE));
    const first = await client.call('requestFaucet', { body: {}, headers });
    expect(first.status).toBe(200);
    const next = Date.parse(first.body.nextEligibleAt);
    expect(next - Date.now()).toBeGreaterThan(3590_000);

    const again = await client.call('requestFaucet', { body: {}, headers });
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429, data: { nextEligibleAt: first.body.nextEligibleAt } });
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(3590);
    expect((await client.call('getBalance', { headers })).body.totalBalanceInUsdCents).toBe(10_000);
  });

  it('answers 403 when the faucet is turned off', async () => {
    const client = disabled;
    const headers = client.withToken(await client.signIn(ALICE));
    const reply = await client.call('requestFaucet', { body: {}, headers });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: 'FORBIDDEN', message: 'The faucet is turned off on this service' });
    expect((await client.call('getBalance', { headers })).body.totalBalanceInUsdCents).toBe(0);
  });
});
