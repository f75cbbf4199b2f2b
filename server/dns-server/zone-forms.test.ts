import * as dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { answerCache, answerWire, cachedAnswer, nameServerSettings } from './server.ts';
import { compiledFor } from './compiled-form.ts';
import { configuredSettings } from './serving-options.ts';
import { compileThreadZone } from './thread-zone.ts';
import { zoneSource, type ZoneSource } from './zone-source.ts';

const [OWNER_KEY] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let count = 0;
const settings = nameServerSettings(['ns1.namefi.test', 'ns2.namefi.test'], { forwardAddresses: ['127.0.0.1'] });

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

const RECORDS = [
  { name: '@', type: 'A', rdata: '192.0.2.1', ttl: 300 },
  { name: '@', type: 'MX', rdata: '10 mail.{zone}.', ttl: 3600 },
  { name: 'mail', type: 'A', rdata: '192.0.2.25', ttl: 3600 },
  { name: 'www', type: 'CNAME', rdata: '{zone}.', ttl: 600 },
  { name: '*', type: 'TXT', rdata: '"wild"', ttl: 120 },
  { name: 'x.deep', type: 'TXT', rdata: '"below an empty non-terminal"', ttl: 120 },
  { name: 'lab', type: 'NS', rdata: 'ns.example.net.', ttl: 86400 },
  { name: 'alias', type: 'ALIAS', rdata: 'target.example.net.', ttl: 300 },
];

/** A zone registered and filled through the API (the pipeline), parked or not. */
async function zone(parked = false): Promise<string> {
  const name = `formzone${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  if (!parked) expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: name, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
  const records = RECORDS.filter((r) => !(parked && r.name === '@' && r.type === 'A')).map((r) => ({ ...r, rdata: r.rdata.replaceAll('{zone}', name) }));
  const reply = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: name, records });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return name;
}

const QUESTIONS: Array<[string, string]> = [
  ['', 'A'], ['', 'SOA'], ['', 'NS'], ['', 'MX'], ['', 'ANY'], ['www.', 'A'], ['mail.', 'A'], ['any.', 'TXT'],
  ['deep.', 'TXT'], ['x.deep.', 'TXT'], ['host.lab.', 'A'], ['nope.x.deep.', 'A'], ['', 'TXT'], ['', 'AAAA'], ['alias.', 'A'], ['late.', 'TXT'],
];

/** The wire answers of `zones` to each question about `name`, with and without DNSSEC OK. */
async function answers(zones: ZoneSource, name: string): Promise<string[]> {
  const out: string[] = [];
  for (const [prefix, type] of QUESTIONS) {
    for (const dnssecOk of [false, true]) {
      const query = dnsPacket.encode({ id: 7, type: 'query', questions: [{ name: `${prefix}${name}`, type: type as 'A' }], additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0 } as dnsPacket.Answer] });
      out.push(...(await answerWire(query, zones, false)).map((b) => b.toString('hex')));
    }
  }
  return out;
}

const formOf = async (name: string) => (await service.services.db.query<{ matches: boolean }>('SELECT f.version IS NOT DISTINCT FROM d.zone_version AS matches FROM zone_forms f JOIN domains d ON d.name = f.zone_name WHERE f.zone_name = $1', [name]))[0];

describe("a zone's compact form", () => {
  it('is written by the pipeline with each change, and a cold zone answers from it exactly what building it from its records answers', async () => {
    const zones = [await zone(), await zone(true)];
    // The ALIAS's flattened addresses, as the refresher keeps them: a change of the zone, through the pipeline.
    await service.services.db.query("INSERT INTO alias_addresses (zone_name, name, target, type, rdata, ttl) VALUES ($1, 'alias', 'target.example.net.', 'A', '198.51.100.7', 300)", [zones[0]]);
    expect((await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: zones[0], type: 'TXT', name: 'late', rdata: 'x', ttl: 60 })).status).toBe(200);
    for (const name of zones) expect(await formOf(name)).toEqual({ matches: true });
    const fromForms = zoneSource(service.services.db, settings);
    const fromRecords = zoneSource(service.services.db, settings);
    const formed = await Promise.all(zones.map((name) => answers(fromForms, name)));
    await service.services.db.query('DELETE FROM zone_forms WHERE zone_name = ANY($1)', [zones]);
    const rebuilt = await Promise.all(zones.map((name) => answers(fromRecords, name)));
    expect(formed).toEqual(rebuilt);
    expect(formed[0].length).toBe(QUESTIONS.length * 2);
    expect((await fromForms.find(zones[0]))?.nodes.get('alias')?.get('A')?.rdatas).toEqual(['198.51.100.7']);
    // Built from its records, the zone had its form written again, of its current version.
    await fromRecords.close();
    for (const name of zones) expect(await formOf(name)).toEqual({ matches: true });
    // And a cold zone is answered from that form, not from its records (here made to differ to tell them apart).
    await service.services.db.query("UPDATE zone_forms SET form = replace(form, '192.0.2.25', '192.0.2.26') WHERE zone_name = $1", [zones[0]]);
    const cold = zoneSource(service.services.db, settings);
    expect((await cold.find(`mail.${zones[0]}`))?.nodes.get('mail')?.get('A')?.rdatas).toEqual(['192.0.2.26']);
    await cold.close();
    await fromForms.close();
  });
});

describe('cold reads together', () => {
  it('builds a zone without a form from all its records when it is read twice in one batch (a change between two loads)', async () => {
    const [name, other] = [await zone(), await zone()];
    await service.services.db.query('DELETE FROM zone_forms WHERE zone_name = $1', [name]);
    const zones = zoneSource(service.services.db, settings);
    await zones.subscribe();
    try {
      // The first read goes at once; the two loads of `name` (a change announced between them) wait for the next batch.
      const first = zones.find(`www.${other}`);
      const before = zones.load(name);
      zones.changed(name);
      const after = zones.load(name);
      expect(before).not.toBe(after);
      for (const snapshot of await Promise.all([before, after])) expect(snapshot?.nodes.get('www')?.get('CNAME')?.rdatas).toEqual([`${name}.`]);
      expect((await first)?.zone).toBe(other);
    } finally {
      await zones.close();
    }
  });
});

describe('the zone cache, bounded in bytes', () => {
  it('answers every zone correctly under a budget that holds one, keeping no more than fits', async () => {
    const names = [await zone(), await zone(), await zone()];
    const tiny = zoneSource(service.services.db, settings, 1);
    await tiny.subscribe();
    try {
      for (let round = 0; round < 3; round += 1) {
        for (const name of names) {
          const snapshot = await tiny.find(`www.${name}`);
          expect(snapshot?.zone).toBe(name);
          expect(snapshot?.nodes.get('www')?.get('CNAME')?.rdatas).toEqual([`${name}.`]);
          expect(tiny.cached().zones).toBe(1);
        }
      }
      const roomy = zoneSource(service.services.db, settings, 1 << 20);
      await roomy.subscribe();
      for (const name of names) await roomy.find(name);
      expect(roomy.cached()).toMatchObject({ zones: 3 });
      expect(roomy.cached().bytes).toBeLessThanOrEqual(1 << 20);
      await roomy.close();
    } finally {
      await tiny.close();
    }
  });

  it('drops a cached zone when it changes, and finds a zone added or removed after it was asked about', async () => {
    const zones = zoneSource(service.services.db, settings);
    await zones.subscribe();
    try {
      const name = await zone();
      expect((await zones.find(`fresh.${name}`))?.nodes.has('fresh')).toBe(false);
      expect((await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: name, type: 'TXT', name: 'fresh', rdata: 'new', ttl: 60 })).status).toBe(200);
      await expect.poll(async () => (await zones.find(`fresh.${name}`))?.nodes.get('fresh')?.get('TXT')?.rdatas).toEqual(['"new"']);
      // Asked before it exists: no zone, remembered; then registered, and below it a zone of its own.
      const later = `formlater${++count}.com`;
      expect(await zones.find(`www.sub.${later}`)).toBeNull();
      await service.services.ownership.mint({ name: later, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
      await expect.poll(async () => (await zones.find(`www.sub.${later}`))?.zone).toBe(later);
      await service.services.ownership.mint({ name: `sub.${later}`, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
      await expect.poll(async () => (await zones.find(`www.sub.${later}`))?.zone).toBe(`sub.${later}`);
      await service.services.db.query('DELETE FROM domains WHERE name = $1', [`sub.${later}`]);
      await expect.poll(async () => (await zones.find(`www.sub.${later}`))?.zone).toBe(later);
    } finally {
      await zones.close();
    }
  });

  it('answers random names under a zone with no zone below it from memory, one read of the database for them all', async () => {
    const db = service.services.db;
    let reads = 0;
    const counting = Object.assign(Object.create(db) as typeof db, { query: ((sql: string, params?: unknown[]) => ((reads += 1), db.query(sql, params))) as typeof db.query });
    const zones = zoneSource(counting, settings);
    await zones.subscribe();
    try {
      const name = await zone();
      expect((await zones.find(`r0.${name}`))?.zone).toBe(name);
      const first = reads;
      for (let i = 1; i <= 50; i += 1) expect((await zones.find(`r${i}.x${i}.${name}`))?.zone).toBe(name);
      expect(reads - first).toBe(0);
      // A zone registered below it: names under that one are its, found through the database again.
      await service.services.ownership.mint({ name: `sub.${name}`, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
      await expect.poll(async () => (await zones.find(`r1.sub.${name}`))?.zone).toBe(`sub.${name}`);
      expect((await zones.find(`r2.other.${name}`))?.zone).toBe(name);
    } finally {
      await zones.close();
    }
  });

  it('builds a zone whose snapshot went for room again from its form kept in memory, without a read, until it changes', async () => {
    const db = service.services.db;
    let reads = 0;
    const counting = Object.assign(Object.create(db) as typeof db, { query: ((sql: string, params?: unknown[]) => ((reads += 1), db.query(sql, params))) as typeof db.query });
    // 16 KiB: the snapshots' quarter holds one of these zones, the forms' rest all three.
    const zones = zoneSource(counting, settings, 16 << 10);
    const fresh = zoneSource(db, settings);
    await Promise.all([zones.subscribe(), fresh.subscribe()]);
    try {
      const names = [await zone(), await zone(true), await zone()];
      for (const name of names) await zones.find(`www.${name}`);
      const first = reads;
      for (let round = 0; round < 2; round += 1) {
        for (const name of names) {
          expect(await answers(zones, name)).toEqual(await answers(fresh, name));
          expect(zones.cached().zones).toBe(1);
        }
      }
      expect(zones.cached().forms).toBe(3);
      expect(zones.cached().bytes).toBeLessThanOrEqual(16 << 10);
      expect(reads - first).toBe(0);
      // A change forgets the form: the zone is read again, with the change.
      expect((await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: names[0], type: 'TXT', name: 'later', rdata: 'after', ttl: 60 })).status).toBe(200);
      await expect.poll(async () => (await zones.find(`later.${names[0]}`))?.nodes.get('later')?.get('TXT')?.rdatas).toEqual(['"after"']);
      expect(reads - first).toBeGreaterThan(0);
    } finally {
      await Promise.all([zones.close(), fresh.close()]);
    }
  });
});

describe('a zone compiled for the UDP threads, kept with it', () => {
  const configured = () => configuredSettings(service.services.config);
  /** A zone whose every answer a thread can write (no wildcard, no delegation), filled through the pipeline. */
  async function plainZone(): Promise<string> {
    const name = `compiled${++count}.com`;
    await service.services.ownership.mint({ name, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
    expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: name, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
    const records = RECORDS.slice(0, 4).map((r) => ({ ...r, rdata: r.rdata.replaceAll('{zone}', name) }));
    expect((await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: name, records })).status).toBe(200);
    return name;
  }
  const compiledOf = async (name: string) => (await service.services.db.query<{ compiled: Uint8Array | null; compiled_for: string | null }>('SELECT compiled, compiled_for FROM zone_forms WHERE zone_name = $1', [name]))[0];
  const PLAIN: Array<[string, string]> = [['', 'A'], ['', 'SOA'], ['', 'NS'], ['', 'MX'], ['www.', 'A'], ['mail.', 'A'], ['nope.', 'A'], ['', 'AAAA'], ['', 'TXT']];
  const query = (name: string, [prefix, type]: [string, string]) => dnsPacket.encode({ id: 9, type: 'query', questions: [{ name: `${prefix}${name}`, type: type as 'A' }], additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as dnsPacket.Answer] });
  /** What a cold instance sends for each question, through its packet cache, as the UDP threads' misses are answered. */
  async function coldAnswers(zones: ZoneSource, name: string): Promise<Array<Buffer | undefined>> {
    const cache = answerCache(zones);
    return Promise.all(PLAIN.map(async (q) => (await cachedAnswer(query(name, q), zones, cache))?.entry.udp));
  }

  it('is compiled by the pipeline for the service settings; a cold question is answered from it, as building the zone answers, without building it', async () => {
    const name = await plainZone();
    const settings = configured();
    const kept = await compiledOf(name);
    expect(kept.compiled_for).toBe(compiledFor(settings));
    const built = zoneSource(service.services.db, settings);
    const snapshot = await built.find(name);
    expect(Buffer.from(kept.compiled!).equals(compileThreadZone(snapshot!)!)).toBe(true);
    const cold = zoneSource(service.services.db, settings);
    await cold.subscribe();
    try {
      const sent = await coldAnswers(cold, name);
      // No snapshot built: every question was answered from the compiled form.
      expect(cold.cached().zones).toBe(0);
      const expected = await Promise.all(PLAIN.map(async (q) => (await answerWire(query(name, q), built, false))[0]));
      expect(sent.map((b) => b?.toString('hex'))).toEqual(expected.map((b) => b.toString('hex')));
      expect(dnsPacket.decode(sent[5]!).answers?.[0]).toMatchObject({ name: `mail.${name}`, data: '192.0.2.25' });
    } finally {
      await Promise.all([cold.close(), built.close()]);
    }
  });

  it('is left alone by an instance with other settings, compiled again with each change, and not kept for a signed zone', async () => {
    const name = await plainZone();
    const other = nameServerSettings(['ns9.elsewhere.test'], configured(), configured().soa);
    const elsewhere = zoneSource(service.services.db, other);
    await elsewhere.subscribe();
    try {
      const [, , ns] = await coldAnswers(elsewhere, name);
      expect(dnsPacket.decode(ns!).answers?.map((a) => (a as { data: unknown }).data)).toEqual(['ns9.elsewhere.test']);
      expect(elsewhere.cached().zones).toBe(1);
    } finally {
      await elsewhere.close();
    }
    const before = await compiledOf(name);
    expect((await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: name, type: 'TXT', name: '@', rdata: 'changed', ttl: 60 })).status).toBe(200);
    const after = await compiledOf(name);
    expect(after.compiled_for).toBe(before.compiled_for);
    expect(Buffer.from(after.compiled!).equals(Buffer.from(before.compiled!))).toBe(false);
    const cold = zoneSource(service.services.db, configured());
    await cold.subscribe();
    try {
      const sent = await coldAnswers(cold, name);
      expect(cold.cached().zones).toBe(0);
      expect(dnsPacket.decode(sent[8]!).answers?.map((a) => ((a as { data: Buffer[] }).data)[0].toString())).toEqual(['changed']);
    } finally {
      await cold.close();
    }
    // Signed, the zone has no current compiled form: a cold instance builds and signs it.
    expect((await client.signed(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: name, enabled: true })).status).toBe(200);
    const signing = zoneSource(service.services.db, configured());
    await signing.subscribe();
    try {
      const cache = answerCache(signing);
      const signed = dnsPacket.encode({ id: 9, type: 'query', questions: [{ name, type: 'A' }], additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: dnsPacket.DNSSEC_OK } as dnsPacket.Answer] });
      const reply = dnsPacket.decode((await cachedAnswer(signed, signing, cache))!.entry.udp);
      expect(reply.answers?.map((a) => a.type)).toEqual(['A', 'RRSIG']);
      expect(signing.cached().zones).toBe(1);
    } finally {
      await signing.close();
    }
  });
});
