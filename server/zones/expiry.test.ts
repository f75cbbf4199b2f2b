import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as dnsPacket from 'dns-packet';
import type { Hex } from 'viem';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { EXPIRED_TXT } from '#core/dns/managed.ts';

/**
 * A domain's life after expiry, on the local chain, with the test clock: grace (answers and edits as before),
 * redemption (the holding page alone, writes refused by name, the restore fee priced), restored by a renewal, and
 * released (burned, deleted, available; a new buyer starts clean).
 */
const [OWNER_KEY, BUYER_KEY] = TEST_KEYS;
const DAY_S = 86_400;
let service: TestService;
let client: TestClient;

beforeAll(async () => {
  service = await startTestService({ DEV_CONTROLS: 'true', CHAIN: 'anvil', FORWARD_ADDRESSES: '192.0.2.80' });
  client = testClient(service);
}, 180_000);
afterAll(() => service.destroy());

const advance = async (seconds: number) => {
  const response = await fetch(`${service.baseUrl}/dev/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceSeconds: seconds }) });
  expect(response.status).toBe(200);
};
/** What the zone answers over DNS (DoH, the same zone source as UDP and TCP). */
async function answers(name: string, type: 'A' | 'TXT'): Promise<string[]> {
  const query = dnsPacket.encode({ type: 'query', id: 0, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name }] });
  const response = await fetch(`${service.origin}/dns-query?dns=${query.toString('base64url')}`);
  const packet = dnsPacket.decode(Buffer.from(await response.arrayBuffer()));
  const found = (packet.answers ?? []).filter((a) => a.type === type) as Array<{ data: unknown }>;
  return found.map((a) => (type === 'TXT' ? `"${Buffer.concat((a.data as Buffer[]).map((b) => Buffer.from(b))).toString()}"` : String(a.data)));
}
const zoneRow = async (name: string) => (await service.services.db.query<{ zone_serial: number; expired: boolean }>('SELECT zone_serial, expired FROM domains WHERE name = $1', [name]))[0];
const mine = async (key: Hex) => (await client.call('getUserDomains', { headers: client.withToken(await client.signIn(key)) })).body as Array<Record<string, unknown>>;
const history = async (key: Hex, name: string) => (await client.call('getZoneHistory', { query: { zoneName: name }, headers: client.withToken(await client.signIn(key)) })).body;
const addRecord = (key: Hex, zoneName: string, name: string, rdata: string) => client.signed(key, 'createDnsRecord', { zoneName, name, type: 'A', rdata, ttl: 300 });

describe('a domain’s life after expiry', () => {
  it('grace, redemption, restored by a renewal; another released and bought again from clean', async () => {
    const kept = 'lifecycle-kept.com';
    const lapsed = 'lifecycle-lapsed.com';
    for (const name of [kept, lapsed]) {
      await service.services.ownership.mint({ name, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: service.services.now() });
      expect((await addRecord(OWNER_KEY, name, 'www', '192.0.2.10')).status).toBe(200);
    }
    expect((await mine(OWNER_KEY)).find((d) => d.normalizedDomainName === kept)).toMatchObject({ status: 'active', autoRenew: false });

    // Grace: a day after expiry. DNS answers as before and the owner still edits.
    await advance(366 * DAY_S);
    const inGrace = (await mine(OWNER_KEY)).find((d) => d.normalizedDomainName === kept)!;
    expect(inGrace.status).toBe('grace');
    expect(Date.parse(inGrace.graceEndsAt as string) - Date.parse(inGrace.expirationDate as string)).toBe(30 * DAY_S * 1000);
    expect(Date.parse(inGrace.redemptionEndsAt as string) - Date.parse(inGrace.graceEndsAt as string)).toBe(30 * DAY_S * 1000);
    expect(await answers(`www.${kept}`, 'A')).toEqual(['192.0.2.10']);
    expect((await addRecord(OWNER_KEY, kept, 'api', '192.0.2.11')).status).toBe(200);
    const serialInGrace = (await zoneRow(kept)).zone_serial;

    // Redemption: the holding page alone answers; a write is refused naming the state; the restore fee is priced.
    await advance(30 * DAY_S);
    expect((await mine(OWNER_KEY)).find((d) => d.normalizedDomainName === kept)!.status).toBe('redemption');
    expect(await zoneRow(kept)).toEqual({ zone_serial: serialInGrace + 1, expired: true });
    expect(await answers(`www.${kept}`, 'A')).toEqual([]);
    expect(await answers(kept, 'A')).toEqual(['192.0.2.80']);
    expect(await answers(kept, 'TXT')).toEqual([EXPIRED_TXT]);
    const refused = await addRecord(OWNER_KEY, kept, 'mail', '192.0.2.12');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/is in redemption .*cannot be changed.*Renew it, with the restore fee/);
    expect((await zoneRow(kept)).zone_serial).toBe(serialInGrace + 1);
    const entry = (await history(OWNER_KEY, kept)).entries[0];
    expect(entry).toMatchObject({ operation: 'expireDomain', serial: serialInGrace + 1, actor: { via: 'service' }, expired: { before: false, after: true }, changes: [] });
    const priced = (await client.call('checkAvailability', { query: { domain: kept } })).body;
    expect(priced).toMatchObject({ availability: false, pricingDetails: { restoreFee: { amount: 80, currency: 'USD' } } });
    expect((await client.call('checkAvailability', { query: { domain: 'never-registered-here.com' } })).body.pricingDetails.restoreFee).toBeUndefined();

    // A renewal in redemption pays the year and the restore fee, as its quote says; once its order has moved the
    // expiry into the future the worker brings the records back.
    const quote = (await client.call('getRenewalQuote', { query: { normalizedDomainName: kept } })).body;
    expect(quote.restoreFeeInUSDCents).toBe(8000);
    const owner = client.withToken(await client.signIn(OWNER_KEY));
    expect((await client.call('requestFaucet', { body: {}, headers: owner })).status).toBe(200);
    const balance = async () => (await client.call('getBalance', { headers: owner })).body.totalBalanceInUsdCents;
    const before = await balance();
    const renewal = await client.signed(OWNER_KEY, 'renewDomain', { normalizedDomainName: kept, durationInYears: 1 });
    expect(renewal.status).toBe(200);
    expect(renewal.body.amountInUSDCents).toBe(quote.renewalPriceInUSDCentsPerYear + 8000);
    await vi.waitFor(
      async () => {
        const order = (await client.call('getOrder', { params: { orderId: renewal.body.id }, headers: owner })).body.order;
        if (order.status !== 'SUCCEEDED') throw new Error(`the renewal is ${order.status}`);
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(await balance()).toBe(before - quote.renewalPriceInUSDCentsPerYear - 8000);
    await advance(1);
    expect(await zoneRow(kept)).toEqual({ zone_serial: serialInGrace + 2, expired: false });
    expect(await answers(`www.${kept}`, 'A')).toEqual(['192.0.2.10']);
    expect((await history(OWNER_KEY, kept)).entries[0]).toMatchObject({ operation: 'restoreDomain', expired: { before: true, after: false } });

    // Released: past redemption the other domain is burned, deleted and available again.
    await advance(30 * DAY_S);
    expect((await mine(OWNER_KEY)).map((d) => d.normalizedDomainName)).not.toContain(lapsed);
    expect(await service.services.ownership.ownerOf(lapsed)).toBeNull();
    expect(await zoneRow(lapsed)).toBeUndefined();
    for (const table of ['dns_records', 'zone_history']) {
      expect(await service.services.db.query(`SELECT 1 FROM ${table} WHERE zone_name = $1`, [lapsed])).toEqual([]);
    }
    expect((await client.call('checkAvailability', { query: { domain: lapsed } })).body).toMatchObject({ availability: true });
    expect(await answers(`www.${lapsed}`, 'A')).toEqual([]);

    // A new buyer starts clean: no records, no history of the old owner.
    await service.services.ownership.mint({ name: lapsed, to: addressOf(BUYER_KEY), chainId: 31337, years: 1, now: service.services.now() });
    // (A new domain starts parked: parking's managed records, none stored.)
    const records = (await client.call('getDnsRecords', { query: { zoneName: lapsed } })).body as Array<{ metadata: { managedBy?: string } | null }>;
    expect(records.filter((r) => r.metadata?.managedBy !== 'parking')).toEqual([]);
    expect((await history(BUYER_KEY, lapsed)).entries).toEqual([]);
    expect((await mine(BUYER_KEY)).find((d) => d.normalizedDomainName === lapsed)).toMatchObject({ status: 'active' });
  }, 300_000);
});
