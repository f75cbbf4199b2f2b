import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../test/support/postgres-server.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient } from '../../test/support/client.ts';
import { registerAndWait } from '../../test/support/orders.ts';

/** The DATABASE_URL path against a real PostgreSQL server: the same service, the `pg` driver instead of PGlite. */
const [OWNER_KEY, OTHER_KEY] = TEST_KEYS;
let postgres: PostgresServer;
let service: TestService;

beforeAll(async () => {
  postgres = await startPostgres();
  service = await startTestService({ DATABASE_URL: postgres.url });
}, 60_000);
afterAll(async () => {
  await service?.destroy();
  await postgres?.stop();
});

describe('the service on PostgreSQL (DATABASE_URL)', () => {
  it('registers a domain through the worker, charges the credit, and serves its zone', async () => {
    const client = testClient(service);
    const token = await client.signIn(OWNER_KEY);
    expect((await client.call('requestFaucet', { body: {}, headers: client.withToken(token) })).status).toBe(200);
    const done = await registerAndWait(client, OWNER_KEY, 'on-postgres.com');
    expect(done.order.status).toBe('SUCCEEDED');
    const balance = await client.call('getBalance', { headers: client.withToken(token) });
    expect(balance.status).toBe(200);
    expect(balance.body.totalBalanceInUsdCents).toBe(10_000 - done.order.amountInUSDCents);

    const created = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: 'on-postgres.com', type: 'A', name: 'www', rdata: '192.0.2.7', ttl: 300 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const zone = await client.call('getDnsRecords', { query: { zoneName: 'on-postgres.com' } });
    expect(zone.body).toContainEqual(expect.objectContaining({ id: created.body.id, name: 'www', type: 'A', rdata: '192.0.2.7', ttl: 300 }));
    const history = await client.call('getZoneHistory', { query: { zoneName: 'on-postgres.com' }, headers: client.withToken(token) });
    expect(history.status).toBe(200);
    expect(history.body.entries[0]).toMatchObject({ operation: 'createDnsRecord', changes: [{ op: 'create', before: null, after: created.body }] });
  });

  it('applies a batch whole or not at all, and refuses another wallet', async () => {
    const client = testClient(service);
    await service.services.ownership.mint({ name: 'batch-pg.com', to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
    const bad = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', {
      zoneName: 'batch-pg.com',
      records: [
        { name: 'a', type: 'A', rdata: '192.0.2.1', ttl: 300 },
        { name: 'b', type: 'A', rdata: '300.0.0.1', ttl: 300 },
      ],
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.fieldErrors)).toEqual(['records.1.rdata']);
    const before = (await client.call('getDnsRecords', { query: { zoneName: 'batch-pg.com' } })).body as Array<{ name: string }>;
    expect(before.filter((r) => r.name === 'a')).toEqual([]);
    const token = await client.signIn(OWNER_KEY);
    expect((await client.call('getZoneHistory', { query: { zoneName: 'batch-pg.com' }, headers: client.withToken(token) })).body).toEqual({ entries: [], next: null });
    const other = await client.signed(OTHER_KEY, 'createDnsRecord', { zoneName: 'batch-pg.com', type: 'A', name: 'x', rdata: '192.0.2.1', ttl: 300 });
    expect(other.status).toBe(403);
  });

  it('keeps everything across a restart on the same database', async () => {
    service = await service.restart({ DATABASE_URL: postgres.url });
    const client = testClient(service);
    const zone = (await client.call('getDnsRecords', { query: { zoneName: 'on-postgres.com' } })).body as Array<{ name: string; rdata: string }>;
    expect(zone).toContainEqual(expect.objectContaining({ name: 'www', rdata: '192.0.2.7' }));
    const token = await client.signIn(OWNER_KEY);
    const domains = await client.call('getUserDomains', { headers: client.withToken(token) });
    expect(JSON.stringify(domains.body)).toContain('on-postgres.com');
  });
});
