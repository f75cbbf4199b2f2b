import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { startPostgres, type PostgresServer } from '../../test/support/postgres-server.ts';

const [OWNER_KEY] = TEST_KEYS;
const HOUR_S = 3600;
const DAY_S = 86_400;

const clockOf = async (service: TestService, init?: RequestInit) => {
  const response = await fetch(`${service.baseUrl}/dev/clock`, init);
  return { status: response.status, body: (await response.json().catch(() => null)) as { now: string; offsetSeconds: number } | null };
};
const advance = (service: TestService, body: unknown) =>
  clockOf(service, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('the test clock, off (the default)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.destroy());

  it('does not exist: 404 for GET and POST, and the OpenAPI document does not name it', async () => {
    expect((await clockOf(service)).status).toBe(404);
    expect((await advance(service, { advanceSeconds: 60 })).status).toBe(404);
    const openapi = await (await fetch(`${service.baseUrl}/openapi.json`)).text();
    expect(openapi).not.toContain('/dev/clock');
  });
});

describe('the test clock, DEV_CONTROLS=true, on the local chain', () => {
  let service: TestService;
  let client: TestClient;
  beforeAll(async () => {
    service = await startTestService({ DEV_CONTROLS: 'true', CHAIN: 'anvil' });
    client = testClient(service);
  }, 60_000);
  afterAll(() => service.destroy());

  it('answers now; moving it moves the service, sessions, signing windows and the chain together', async () => {
    const before = await clockOf(service);
    expect(before.status).toBe(200);
    expect(Math.abs(Date.parse(before.body!.now) - Date.now())).toBeLessThan(5000);

    const token = await client.signIn(OWNER_KEY);
    expect((await client.call('getUserDomains', { headers: client.withToken(token) })).status).toBe(200);

    const moved = await advance(service, { advanceSeconds: 13 * HOUR_S });
    expect(moved.status).toBe(200);
    expect(Date.parse(moved.body!.now) - Date.now()).toBeGreaterThan(13 * HOUR_S * 1000 - 5000);
    expect(moved.body!.offsetSeconds).toBe(13 * HOUR_S);
    // Every reader of time: the service, the chain's next block, the session (12 h) that has now lapsed.
    expect(Math.abs(service.services.now().getTime() - Date.parse(moved.body!.now))).toBeLessThan(5000);
    const block = await service.chain!.clients.public.getBlock({ blockTag: 'latest' });
    expect(Math.abs(Number(block.timestamp) * 1000 - Date.parse(moved.body!.now))).toBeLessThan(5000);
    expect((await client.call('getUserDomains', { headers: client.withToken(token) })).status).toBe(401);

    // An envelope stamped with the real time is outside the window; one stamped with the service's clock is taken.
    const name = 'clock-window.com';
    await service.services.ownership.mint({ name, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: service.services.now() });
    const record = { zoneName: name, name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 };
    const stale = await client.signed(OWNER_KEY, 'createDnsRecord', record, { timestamp: Math.floor(Date.now() / 1000) });
    expect(stale.status).toBe(401);
    const fresh = await client.signed(OWNER_KEY, 'createDnsRecord', record);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
  });

  it('refuses a move that is not a whole number of seconds from 1 to ten years, and moves nothing', async () => {
    const before = (await clockOf(service)).body!.offsetSeconds;
    for (const body of [{ advanceSeconds: -5 }, { advanceSeconds: 0 }, { advanceSeconds: 1.5 }, { advanceSeconds: '60' }, { advanceSeconds: 11 * 366 * DAY_S }, {}, 'not json', { advanceSeconds: 60, extra: 1 }]) {
      const refused = await advance(service, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toMatchObject({ status: 400 });
    }
    expect((await clockOf(service)).body!.offsetSeconds).toBe(before);
  });

  it('is kept across a restart, with the chain brought up to it', async () => {
    const before = (await clockOf(service)).body!.offsetSeconds;
    service = await service.restart();
    const after = await clockOf(service);
    expect(after.body!.offsetSeconds).toBe(before);
    const block = await service.chain!.clients.public.getBlock({ blockTag: 'latest' });
    expect(Number(block.timestamp) * 1000).toBeGreaterThan(Date.parse(after.body!.now) - 5000);
  }, 60_000);
});

describe('the test clock across instances on one database', () => {
  let postgres: PostgresServer;
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    postgres = await startPostgres();
    [a, b] = await Promise.all([startTestService({ DEV_CONTROLS: 'true', DATABASE_URL: postgres.url }), startTestService({ DEV_CONTROLS: 'true', DATABASE_URL: postgres.url })]);
  }, 90_000);
  afterAll(async () => {
    await a?.destroy();
    await b?.destroy();
    await postgres?.stop();
  });

  it('a move on one instance is every instance’s clock', async () => {
    const moved = await advance(a, { advanceSeconds: 40 * DAY_S });
    expect(moved.status).toBe(200);
    await expect.poll(async () => (await clockOf(b)).body!.offsetSeconds, { timeout: 5000 }).toBe(40 * DAY_S);
    expect(Math.abs(b.services.now().getTime() - a.services.now().getTime())).toBeLessThan(2000);
  });
});
