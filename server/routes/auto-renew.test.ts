import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

const [OWNER_KEY, OTHER_KEY] = TEST_KEYS;
const DAY_MS = 86_400_000;
let service: TestService;
let client: TestClient;
let count = 0;

beforeAll(async () => {
  // A setting of its own, to show nextAttemptAt follows AUTO_RENEW_DAYS.
  service = await startTestService({ AUTO_RENEW_DAYS: '45' });
  client = testClient(service);
});
afterAll(() => service.destroy());

async function domain(owner: Hex = OWNER_KEY) {
  const name = `renew${++count}.com`;
  const token = await service.services.ownership.mint({ name, to: addressOf(owner), chainId: 31337, years: 2, now: new Date() });
  return { name, expiresAt: token.expiresAt };
}
const setAutoRenew = (payload: Record<string, unknown>, key: Hex = OWNER_KEY) => client.signed(key, 'setAutoRenew', payload);
const getAutoRenew = async (name: string) => (await client.call('getAutoRenew', { query: { normalizedDomainName: name } })).body;
/** What the zone answers and its history: the switch must leave both as they were. */
const zoneState = async (name: string) => ({
  serial: (await service.services.db.query<{ zone_serial: number }>('SELECT zone_serial FROM domains WHERE name = $1', [name]))[0]?.zone_serial,
  entries: (await service.services.db.query('SELECT 1 FROM zone_history WHERE zone_name = $1', [name])).length,
});

describe('auto-renew', () => {
  it('a domain never switched answers the defaults; an unknown one is a 404', async () => {
    const { name } = await domain();
    expect(await getAutoRenew(name)).toEqual({ normalizedDomainName: name, enabled: false, durationInYears: 1, nextAttemptAt: null, lastAttempt: null });
    const unknown = await client.call('getAutoRenew', { query: { normalizedDomainName: 'nobody-has-this.com' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ defined: true, status: 404 });
  });

  it('the owner switches it on, signed: nextAttemptAt is the expiry less AUTO_RENEW_DAYS; off clears it; the zone is untouched', async () => {
    const { name, expiresAt } = await domain();
    const before = await zoneState(name);
    const on = await setAutoRenew({ normalizedDomainName: name, enabled: true, durationInYears: 3 });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toEqual({ normalizedDomainName: name, enabled: true, durationInYears: 3, nextAttemptAt: new Date(expiresAt.getTime() - 45 * DAY_MS).toISOString(), lastAttempt: null });
    expect(await getAutoRenew(name)).toEqual(on.body);

    const off = await setAutoRenew({ normalizedDomainName: name, enabled: false, durationInYears: 3 });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ normalizedDomainName: name, enabled: false, durationInYears: 3, nextAttemptAt: null, lastAttempt: null });
    expect(await getAutoRenew(name)).toEqual(off.body);
    // Not a change of what the zone answers: no serial, no history entry.
    expect(await zoneState(name)).toEqual(before);
  });

  it('another wallet is a 403, an unknown domain a 404, and neither changes anything', async () => {
    const { name } = await domain();
    const stranger = await setAutoRenew({ normalizedDomainName: name, enabled: true, durationInYears: 1 }, OTHER_KEY);
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toMatch(/does not own/);
    const unknown = await setAutoRenew({ normalizedDomainName: 'nobody-has-this.com', enabled: true, durationInYears: 1 });
    expect(unknown.status).toBe(404);
    expect((await getAutoRenew(name)).enabled).toBe(false);
  });

  it('durationInYears is 1 to 10: anything else is a 400 naming it, and nothing is written', async () => {
    const { name } = await domain();
    const check = (reply: { status: number; body: any }, what: string) => {
      expect(reply.status, what).toBe(400);
      expect(Object.keys(reply.body.data.fieldErrors), what).toEqual(['durationInYears']);
      expect(reply.body.data.fieldErrors.durationInYears[0], what).toMatch(/durationInYears/);
    };
    for (const durationInYears of [0, 11]) check(await setAutoRenew({ normalizedDomainName: name, enabled: true, durationInYears }), `signed ${durationInYears}`);
    // Values no uint256 holds cannot be signed at all; with an API key the input schema names them the same way.
    const token = await client.signIn(OWNER_KEY);
    const key = (await client.call('createApiKey', { body: { label: 'years' }, headers: client.withToken(token) })).body.key as string;
    for (const durationInYears of [0, 11, 1.5, -1, '2', null]) {
      check(await client.call('setAutoRenew', { body: { normalizedDomainName: name, enabled: true, durationInYears }, headers: client.withApiKey(key) }), `key ${String(durationInYears)}`);
    }
    expect(await getAutoRenew(name)).toMatchObject({ enabled: false, durationInYears: 1 });
    for (const durationInYears of [1, 10]) expect((await setAutoRenew({ normalizedDomainName: name, enabled: true, durationInYears })).status).toBe(200);
    expect((await getAutoRenew(name)).durationInYears).toBe(10);
  });

  it('a signature over other values, or with a signed field dropped, is refused and changes nothing', async () => {
    const { name } = await domain();
    const swapped = await client.signed(OWNER_KEY, 'setAutoRenew', { normalizedDomainName: name, enabled: false, durationInYears: 1 }, {
      tamper: (envelope) => ({ ...envelope, payload: { ...envelope.payload, enabled: true } }),
    });
    expect(swapped.status).toBe(401);
    const missing = await client.signed(OWNER_KEY, 'setAutoRenew', { normalizedDomainName: name, enabled: true, durationInYears: 2 }, {
      tamper: (envelope) => ({ ...envelope, payload: { ...envelope.payload, durationInYears: undefined } }),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.data).toMatchObject({ rule: 'MISSING_SIGNED_FIELD', fieldErrors: { durationInYears: expect.any(Array) } });
    expect(await getAutoRenew(name)).toMatchObject({ enabled: false, durationInYears: 1 });
  });

  it("an API key of the owner's sets it with the plain payload; a SIWE token alone does not", async () => {
    const { name } = await domain();
    const token = await client.signIn(OWNER_KEY);
    const payload = { normalizedDomainName: name, enabled: true, durationInYears: 2 };
    expect((await client.call('setAutoRenew', { body: payload, headers: client.withToken(token) })).status).toBe(401);
    const key = (await client.call('createApiKey', { body: { label: 'auto-renew' }, headers: client.withToken(token) })).body.key as string;
    const reply = await client.call('setAutoRenew', { body: payload, headers: client.withApiKey(key) });
    expect(reply.status).toBe(200);
    expect(await getAutoRenew(name)).toMatchObject(payload);
    const otherToken = await client.signIn(OTHER_KEY);
    const otherKey = (await client.call('createApiKey', { body: { label: 'not the owner' }, headers: client.withToken(otherToken) })).body.key as string;
    expect((await client.call('setAutoRenew', { body: { ...payload, enabled: false }, headers: client.withApiKey(otherKey) })).status).toBe(403);
  });

  it('a setting made by an earlier holder counts for nothing once the domain is held by another wallet', async () => {
    const { name } = await domain();
    expect((await setAutoRenew({ normalizedDomainName: name, enabled: true, durationInYears: 4 })).status).toBe(200);
    await service.services.db.query('UPDATE domains SET owner_address = $2 WHERE name = $1', [name, addressOf(OTHER_KEY).toLowerCase()]);
    expect(await getAutoRenew(name)).toEqual({ normalizedDomainName: name, enabled: false, durationInYears: 1, nextAttemptAt: null, lastAttempt: null });
    const mine = await setAutoRenew({ normalizedDomainName: name, enabled: true, durationInYears: 2 }, OTHER_KEY);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ enabled: true, durationInYears: 2 });
  });
});
