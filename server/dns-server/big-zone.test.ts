import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import type { Queryable } from '../db/database.ts';
import { nameServerSettings } from './server.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';
import { zoneSource } from './zone-source.ts';

/**
 * A big zone (5,000 stored records or more) changed through the API is not read again whole: the name server patches
 * the version it holds with the names the change's history entry names. What it then answers is what a name server
 * reading the zone whole from the database answers, unsigned and signed, for adds, updates and deletes, deep names too.
 */
const [OWNER_KEY] = TEST_KEYS;
const BIG = 'big-patched.com';
const STORED = 5_200;
const settings = nameServerSettings(['ns1.namefi.test'], { forwardAddresses: ['127.0.0.1'] });
let service: TestService;
let client: TestClient;

beforeAll(async () => {
  service = await startTestService({ DNS_PORT: '0' });
  client = testClient(service);
  await service.services.ownership.mint({ name: BIG, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: BIG, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
  // The bulk goes in directly (the API's batches are smaller); the first change through the API announces the zone.
  await service.services.db.query(
    `INSERT INTO dns_records (id, zone_name, name, type, ttl, rdata) SELECT gen_random_uuid(), $1, 'host' || g, 'A', 300, '10.0.' || (g >> 8) % 256 || '.' || g % 256 FROM generate_series(1, $2::int) AS g`,
    [BIG, STORED],
  );
  await service.services.db.query('UPDATE domains SET record_count = record_count + $2 WHERE name = $1', [BIG, STORED]);
});
afterAll(() => service.destroy());

/** The zone as served, signature bytes left out (ECDSA is randomised). */
function shape(zone: ZoneSnapshot | null) {
  if (!zone) return null;
  const nodes = [...zone.nodes].map(([name, node]) => `${name}: ${[...node.values()].map((set) => `${set.type} ${set.ttl} ${set.rdatas.join('|')}`).join('; ')}`).sort();
  const signed = zone.signed ? zone.signed.chain.map((rel) => `${rel} ${Buffer.from(zone.signed?.nsec.get(rel) as Uint8Array).toString('hex')} ${[...(zone.signed?.rrsigs.get(rel)?.keys() ?? [])].sort().join(',')}`) : null;
  return { serial: zone.serial, nodes, interior: [...zone.interior].sort(), signed };
}

describe('a big zone changed through the API', () => {
  it('is patched with the names each change touched, and answers what reading it whole answers, unsigned then signed', async () => {
    const db = service.services.db;
    // The name server under test counts the pages of records it reads; a second one, not subscribed, reads the zone whole.
    let pagesRead = 0;
    const counted: Queryable & { listen: typeof db.listen } = {
      query: (sql, params) => {
        if (sql.includes('seq > $2')) pagesRead += 1;
        return db.query(sql, params);
      },
      listen: db.listen?.bind(db),
    };
    const zones = zoneSource(counted, settings);
    await zones.subscribe();
    const whole = () => zoneSource({ query: (sql, params) => db.query(sql, params) }, settings).find(BIG);
    /** After a change: the subscribed name server's zone once it holds the new serial. */
    const current = async (serial: number) => {
      for (let i = 0; i < 1000; i += 1) {
        const zone = await zones.find(BIG);
        if (zone && zone.serial >= serial) return zone;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`the name server never reached serial ${serial}`);
    };
    const serialNow = async () => Number((await db.query<{ zone_serial: string }>('SELECT zone_serial FROM domains WHERE name = $1', [BIG]))[0].zone_serial);
    const signed = async (operation: string, body: Record<string, unknown>) => {
      const reply = await client.signed(OWNER_KEY, operation as never, { zoneName: BIG, ...body } as never);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body as { id: string };
    };

    const first = await signed('createDnsRecord', { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 });
    const loaded = await current(await serialNow());
    expect(loaded.nodes.size).toBeGreaterThan(STORED);
    const wholeReads = pagesRead;
    expect(wholeReads).toBeGreaterThan(1);

    const changes = async () => {
      const deep = await signed('createDnsRecord', { name: 'a.b.deep', type: 'TXT', rdata: '"deep"', ttl: 120 });
      expect(shape(await current(await serialNow()))).toEqual(shape(await whole()));
      await signed('updateDnsRecord', { id: first.id, name: 'www', type: 'A', rdata: '192.0.2.2', ttl: 600 });
      expect(shape(await current(await serialNow()))).toEqual(shape(await whole()));
      await signed('deleteDnsRecord', { id: deep.id });
      const after = await current(await serialNow());
      expect(after.nodes.has('a.b.deep')).toBe(false);
      expect(after.interior.has('b.deep')).toBe(false);
      expect(shape(after)).toEqual(shape(await whole()));
    };
    await changes();
    // None of the changes read the zone's pages again.
    expect(pagesRead).toBe(wholeReads);

    // Signing on is read whole (every set is signed anew); the changes after it are patched and signed name by name.
    await client.signed(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: BIG, enabled: true });
    const signedZone = await current(await serialNow());
    expect(signedZone.signed).not.toBeNull();
    const signedReads = pagesRead;
    await changes();
    expect(pagesRead).toBe(signedReads);
    await zones.close();
  }, 120_000);
});
