import { createRequire } from 'node:module';
import * as dnsPacket from 'dns-packet';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { createSocket } from 'node:dgram';
import { isAtOrBelow } from '#core/dns/names.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { table } from './answer-table.ts';
import { cookies, nowSeconds } from './edns.ts';
import { packetCache } from './packet-cache.ts';
import { answerFor, cachedAnswer, nameServerSettings } from './server.ts';
import { compileThreadZone } from './thread-zone.ts';
import { buildSnapshot, type StoredRecord, type ZoneSnapshot } from './zone-snapshot.ts';
import type { ZoneSource } from './zone-source.ts';

type Reader = { cookieAt: number; proven: boolean };
const require = createRequire(import.meta.url);
const { answerReader, find, zoneAnswerInto } = require('./udp-answer.cjs') as {
  answerReader(t: unknown, secrets: unknown): Reader;
  find(r: Reader, q: Buffer, n: number): boolean;
  zoneAnswerInto(r: Reader, z: unknown, q: Buffer, n: number, ip: Buffer | null, now: number, out: Buffer): number;
};
const { zoneReader, tallyOfLast } = require('./thread-zone.cjs') as { zoneReader(t: unknown): unknown; tallyOfLast(z: unknown): Buffer };

const ZONE = 'shop.example';
const settings = nameServerSettings(['ns1.namefi.test', 'ns2.namefi.test'], { forwardAddresses: ['192.0.2.80'] });
const secrets = cookies.cookieSecrets(Buffer.alloc(32, 7));
const PEER = { address: '192.0.2.1', secrets };

const NAMES = ['@', 'www', 'mail', 'a.b', 'deep.a.b', 'ftp', '_sip._tcp'];
const TARGETS = [`${ZONE}.`, `mail.${ZONE}.`, `www.${ZONE}.`, `gone.${ZONE}.`, `b.${ZONE}.`, 'elsewhere.test.'];
const record = fc.oneof(
  fc.record({ type: fc.constant<RecordType>('A'), rdata: fc.ipV4() }),
  fc.record({ type: fc.constant<RecordType>('AAAA'), rdata: fc.constantFrom('2001:db8::1', '2001:db8::53') }),
  fc.record({ type: fc.constant<RecordType>('MX'), rdata: fc.constantFrom(...TARGETS).map((t) => `10 ${t}`) }),
  fc.record({ type: fc.constant<RecordType>('TXT'), rdata: fc.stringMatching(/^[a-z =-]{0,40}$/).map((t) => `"${t}"`) }),
  fc.record({ type: fc.constant<RecordType>('CNAME'), rdata: fc.constantFrom(...TARGETS) }),
  fc.record({ type: fc.constant<RecordType>('SRV'), rdata: fc.constantFrom(...TARGETS).map((t) => `0 5 5060 ${t}`) }),
  fc.record({ type: fc.constant<RecordType>('CAA'), rdata: fc.constant('0 issue "letsencrypt.org"') }),
);
/** A zone's stored records: a CNAME alone at its name and never at the apex, as the service's rules keep them. */
const MAIL: Array<[string, { type: RecordType; rdata: string }, number]> = [
  ['@', { type: 'MX', rdata: `10 mail.${ZONE}.` }, 300],
  ['mail', { type: 'A', rdata: '192.0.2.25' }, 300],
];
const zoneRecords = fc.tuple(fc.array(fc.tuple(fc.constantFrom(...NAMES), record, fc.integer({ min: 60, max: 86400 })), { minLength: 1, maxLength: 12 }), fc.boolean()).map(([drawn, mail]) => {
  // Half the zones get mail in the zone too, so that answers carry the addresses of the names they point to.
  const all = mail ? [...MAIL, ...drawn] : drawn;
  const list = all.filter(([name, r]) => !(name === '@' && r.type === 'CNAME'));
  const cnames = new Set(list.filter(([, r]) => r.type === 'CNAME').map(([name]) => name));
  const kept = list.filter(([name, r]) => (cnames.has(name) ? r.type === 'CNAME' : true));
  const seen = new Set<string>();
  return kept
    .filter(([name, r]) => r.type !== 'CNAME' || !seen.has(name) && (seen.add(name), true))
    .map(([name, r, ttl]): StoredRecord => ({ name, type: r.type, ttl, rdata: r.rdata }));
});

const QTYPES = ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'SRV', 'CAA', 'NS', 'SOA', 'PTR', 'HTTPS', 'UNKNOWN_999', 'ANY', 'DS'];
const question = fc.record({
  // Weighted towards the names and types most zones have, so that every kind of answer comes up.
  name: fc.oneof({ arbitrary: fc.constantFrom('@', 'mail', 'www'), weight: 2 }, { arbitrary: fc.constantFrom(...NAMES, 'gone', 'x.www', 'b'), weight: 3 }),
  upper: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
  type: fc.oneof({ arbitrary: fc.constantFrom('A', 'MX'), weight: 1 }, { arbitrary: fc.constantFrom(...QTYPES), weight: 2 }),
  flags: fc.constantFrom(0, 0x100, 0x10, 0x110, 0x20),
  edns: fc.option(fc.record({ size: fc.constantFrom(0, 256, 512, 1232, 4096, 600), dnssecOk: fc.boolean(), cookie: fc.constantFrom(null, 8, 24, 5) })),
});

function queryOf(q: typeof question extends fc.Arbitrary<infer Q> ? Q : never): Buffer {
  const absolute = q.name === '@' ? ZONE : `${q.name}.${ZONE}`;
  const name = [...absolute].map((c, i) => (q.upper[i % 40] ? c.toUpperCase() : c)).join('');
  const opt = q.edns && {
    type: 'OPT',
    name: '.',
    udpPayloadSize: q.edns.size,
    flags: q.edns.dnssecOk ? dnsPacket.DNSSEC_OK : 0,
    options: q.edns.cookie === null ? [] : [{ code: 10, data: Buffer.alloc(q.edns.cookie, 0xc0) }],
  };
  return dnsPacket.encode({ id: 4242, type: 'query', flags: q.flags, questions: [{ name, type: q.type as 'A' }], additionals: opt ? [opt as never] : [] });
}

function zoneOf(records: StoredRecord[]): ZoneSnapshot {
  return buildSnapshot(ZONE, { serial: 7, version: 'v7', parked: false, forwarding: false }, records, settings);
}

const sourceOf = (snapshot: ZoneSnapshot) =>
  ({ subscribed: true, find: async (qname: string) => (isAtOrBelow(qname, ZONE) ? snapshot : null), whole: () => snapshot, compiled: async () => null }) as unknown as ZoneSource;

describe("the UDP threads' answers from a compiled zone", () => {
  it('are byte for byte what the main thread answers, counted alike, for any zone of plain names and any question; the rest is left to the main thread', async () => {
    const seen = { asked: 0, answered: 0, cname: 0, nodata: 0, additional: 0, cookie: 0, nxdomain: 0 };
    await fc.assert(
      fc.asyncProperty(zoneRecords, fc.array(question, { minLength: 10, maxLength: 10 }), async (records, questions) => {
        const snapshot = zoneOf(records);
        const form = compileThreadZone(snapshot);
        expect(form, 'a zone of plain names compiles').not.toBeNull();
        const threads = packetCache();
        threads.keepZone(ZONE, () => form, threads.begin());
        const view = table.openTable(threads.table);
        const reader = answerReader(view, secrets);
        const zones = zoneReader(view);
        for (const q of questions) {
          const query = queryOf(q);
          const now = nowSeconds();
          const main = await cachedAnswer(query, sourceOf(snapshot), packetCache(), undefined, PEER);
          const expected = main && answerFor(main.entry, query, PEER).bytes;
          expect(find(reader, query, query.length), 'no whole query is kept in the threads\u2019 table').toBe(false);
          const out = Buffer.alloc(1232 + 28);
          const length = zoneAnswerInto(reader, zones, query, query.length, cookies.addressBytes(PEER.address), now, out);
          seen.asked += 1;
          if (length < 0 || nowSeconds() !== now) continue;
          seen.answered += 1;
          const answer = out.subarray(0, length);
          expect(answer.toString('hex')).toBe(expected?.toString('hex'));
          expect(JSON.parse(tallyOfLast(zones).toString())).toEqual([ZONE, main?.entry.meta]);
          const decoded = dnsPacket.decode(answer);
          if (decoded.answers?.some((a) => a.type === 'CNAME') && q.type !== 'CNAME') seen.cname += 1;
          if ((answer[3] & 0xf) === 3) seen.nxdomain += 1;
          if ((decoded.answers ?? []).length === 0) seen.nodata += 1;
          if ((decoded.additionals ?? []).some((a) => a.type !== 'OPT')) seen.additional += 1;
          if (q.edns?.cookie === 8 || q.edns?.cookie === 24) seen.cookie += 1;
        }
      }),
      { numRuns: 200 },
    );
    console.log(`compiled zones: ${seen.answered} of ${seen.asked} questions answered by a thread`, seen);
    // Not passed by answering nothing: most questions are the threads', of every kind.
    expect(seen.answered).toBeGreaterThan(seen.asked / 4);
    for (const kind of ['cname', 'nodata', 'additional', 'cookie', 'nxdomain'] as const) expect(seen[kind], kind).toBeGreaterThan(10);
  });

  it('given any bytes near a question, answers only what the main thread answers the same, and never throws', async () => {
    const snapshot = zoneOf([...MAIL.map(([name, r, ttl]) => ({ name, type: r.type, ttl, rdata: r.rdata })), { name: 'www', type: 'CNAME', ttl: 300, rdata: `${ZONE}.` }]);
    const threads = packetCache();
    threads.keepZone(ZONE, () => compileThreadZone(snapshot), threads.begin());
    const view = table.openTable(threads.table);
    const reader = answerReader(view, secrets);
    const zones = zoneReader(view);
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(question, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 2 }), async (q, changes) => {
        const query = Buffer.from(queryOf(q));
        for (const [at, value] of changes) query[at % query.length] = value;
        const now = nowSeconds();
        const out = Buffer.alloc(1232 + 28);
        find(reader, query, query.length);
        const length = zoneAnswerInto(reader, zones, query, query.length, cookies.addressBytes(PEER.address), now, out);
        if (length < 0) return;
        const main = await cachedAnswer(query, sourceOf(snapshot), packetCache(), undefined, PEER);
        if (nowSeconds() !== now) return;
        answered += 1;
        expect(out.subarray(0, length).toString('hex')).toBe(main && answerFor(main.entry, query, PEER).bytes.toString('hex'));
      }),
      { numRuns: 1500 },
    );
    expect(answered, "mutated questions a thread still answered").toBeGreaterThan(40);
  });

  it('leaves signed zones, wildcards and delegations below the apex to the main thread', () => {
    const plain: StoredRecord[] = [{ name: 'www', type: 'A', ttl: 300, rdata: '192.0.2.1' }];
    expect(compileThreadZone(zoneOf(plain))).not.toBeNull();
    expect(compileThreadZone(zoneOf([...plain, { name: '*', type: 'A', ttl: 300, rdata: '192.0.2.2' }]))).toBeNull();
    expect(compileThreadZone(zoneOf([...plain, { name: 'sub', type: 'NS', ttl: 300, rdata: 'ns.elsewhere.test.' }]))).toBeNull();
    expect(compileThreadZone({ ...zoneOf(plain), signed: {} as never })).toBeNull();
  });
});

// The whole way: the service's name server with its UDP thread. One question to a zone lets the main thread compile
// it; the zone's other questions, never asked before (a name it lacks too), are then answered by the thread (no miss reaches the main
// thread), and a change of the zone is answered at once, never the compiled form of before.
describe('a zone compiled for the UDP threads, served', () => {
  let service: TestService;
  let client: TestClient;
  beforeAll(async () => {
    service = await startTestService({ DNS_PORT: '0', DNS_UDP_THREADS: '1' });
    client = testClient(service);
  });
  afterAll(() => service?.destroy());

  /** One question over UDP (RD clear, no EDNS): the decoded answer. */
  async function ask(name: string, type: string): Promise<dnsPacket.Packet> {
    const socket = createSocket('udp4');
    try {
      const answer = new Promise<Buffer>((done, fail) => {
        socket.once('message', done);
        setTimeout(() => fail(new Error(`no answer to ${name} ${type}`)), 2000).unref();
      });
      socket.send(dnsPacket.encode({ id: 9, type: 'query', questions: [{ name, type: type as 'A' }] }), service.dns?.port as number, '127.0.0.1');
      return dnsPacket.decode(await answer);
    } finally {
      socket.close();
    }
  }
  const text = (a: dnsPacket.Answer) => {
    const value = (a as { data?: unknown }).data;
    return typeof value === 'string' ? value : JSON.stringify(value);
  };
  const data = (reply: dnsPacket.Packet) => (reply.answers ?? []).map((a) => `${a.type} ${text(a)}`);

  it("answers a zone's questions from the thread once one was asked, and a change at once", async () => {
    const zone = 'compiled-zone.com';
    const [owner] = TEST_KEYS;
    await service.services.ownership.mint({ name: zone, to: addressOf(owner), chainId: 31337, years: 1, now: new Date() });
    expect((await client.signed(owner, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
    const created = await client.signed(owner, 'batchCreateDnsRecords', {
      zoneName: zone,
      records: [
        { name: '@', type: 'A', rdata: '192.0.2.10', ttl: 300 },
        { name: 'www', type: 'CNAME', rdata: `${zone}.`, ttl: 300 },
        { name: 'mail', type: 'A', rdata: '198.51.100.7', ttl: 300 },
        { name: '@', type: 'MX', rdata: `10 mail.${zone}.`, ttl: 300 },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // The first question reaches the main thread, which compiles the zone as it answers.
    const first = service.dns?.misses()?.answered as number;
    expect(data(await ask(zone, 'A'))).toEqual(['A 192.0.2.10']);
    const before = service.dns?.misses()?.answered as number;
    expect(before).toBe(first + 1);
    expect((await ask(zone, 'TXT')).answers).toEqual([]);
    expect(data(await ask(`www.${zone}`, 'A'))).toEqual([`CNAME ${zone}`, 'A 192.0.2.10']);
    expect(data(await ask(`Mail.${zone}`, 'A'))).toEqual(['A 198.51.100.7']);
    const mx = await ask(zone, 'MX');
    expect(data(mx)).toEqual([`MX ${JSON.stringify({ preference: 10, exchange: `mail.${zone}` })}`]);
    expect((mx.additionals ?? []).map((a) => `${a.name} ${a.type} ${text(a)}`)).toEqual([`mail.${zone} A 198.51.100.7`]);
    expect((await ask(zone, 'AAAA')).answers).toEqual([]);
    const missing = await ask(`no-such-name.${zone}`, 'A');
    expect([(missing as { rcode?: string }).rcode, missing.authorities?.map((a) => a.type)]).toEqual(['NXDOMAIN', ['SOA']]);
    expect(service.dns?.misses()?.answered, 'none of these reached the main thread').toBe(before);

    const mail = (created.body as Array<{ id: string; name: string }>).find((r) => r.name === 'mail') as { id: string };
    expect((await client.signed(owner, 'updateDnsRecord', { id: mail.id, zoneName: zone, name: 'mail', type: 'A', ttl: 300, rdata: '198.51.100.8' })).status).toBe(200);
    await expect.poll(async () => data(await ask(`MAIL.${zone}`, 'A'))).toEqual(['A 198.51.100.8']);
    expect(data(await ask(`mAil.${zone}`, 'A'))).toEqual(['A 198.51.100.8']);
  });
});
