import { createSocket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseZoneFile } from '#core/dns/zone-file.ts';
import { bindToolsMissing, compileZone, dig } from '../../test/support/bind.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { loadConfig } from '../config.ts';
import { answerWire, mayTransfer, nameServerSettings } from './server.ts';
import { zoneSource } from './zone-source.ts';

if (bindToolsMissing()) throw new Error(bindToolsMissing() as string);

const [OWNER_KEY] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let port: number;
let count = 0;

beforeAll(async () => {
  service = await startTestService({ DNS_PORT: '0' });
  client = testClient(service);
  port = service.dns?.port as number;
});
afterAll(() => service.destroy());

const RECORDS = [
  { name: '@', type: 'A', rdata: '192.0.2.1', ttl: 300 },
  { name: '@', type: 'MX', rdata: '10 mail.{zone}.', ttl: 3600 },
  { name: 'mail', type: 'A', rdata: '192.0.2.25', ttl: 3600 },
  { name: 'www', type: 'CNAME', rdata: '{zone}.', ttl: 600 },
  { name: 'a', type: 'CNAME', rdata: 'b.{zone}.', ttl: 60 },
  { name: 'b', type: 'CNAME', rdata: 'c.{zone}.', ttl: 60 },
  { name: 'c', type: 'AAAA', rdata: '2001:db8::c', ttl: 60 },
  { name: 'out', type: 'CNAME', rdata: 'elsewhere.example.net.', ttl: 60 },
  { name: '*', type: 'A', rdata: '192.0.2.99', ttl: 120 },
  { name: '*.shop', type: 'MX', rdata: '10 mail.{zone}.', ttl: 120 },
  { name: 'x.deep', type: 'TXT', rdata: '"below an empty non-terminal"', ttl: 120 },
  { name: 'lab', type: 'NS', rdata: 'ns1.lab.{zone}.', ttl: 86400 },
  { name: 'lab', type: 'NS', rdata: 'ns.example.net.', ttl: 86400 },
  { name: 'ns1.lab', type: 'A', rdata: '192.0.2.53', ttl: 86400 },
  { name: '@', type: 'CAA', rdata: '0 issuemail "letsencrypt.org"', ttl: 3600 },
  { name: '@', type: 'HTTPS', rdata: '1 . alpn=h2,h3 port=8443', ttl: 300 },
  { name: '_sip._tcp', type: 'SRV', rdata: '10 5 5060 mail.{zone}.', ttl: 300 },
];

async function zone(parked = false): Promise<string> {
  const name = `dnszone${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  if (!parked) {
    const unpark = await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: name, enableParking: false, overrideExistingRecords: false });
    expect(unpark.status).toBe(200);
  }
  // While parked, the apex address is parking's.
  const records = RECORDS.filter((r) => !(parked && r.name === '@' && r.type === 'A')).map((r) => ({ ...r, rdata: r.rdata.replaceAll('{zone}', name) }));
  const reply = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: name, records });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return name;
}

/** dig's answer, authority and additional sections as "owner ttl type rdata" lines, and the header's status and flags. */
async function ask(name: string, type: string, extra: string[] = []) {
  const text = await dig(port, ['+norec', '+nocookie', ...extra, name, type]);
  const section = (title: string) => {
    const match = new RegExp(`;; ${title} SECTION:\\n([\\s\\S]*?)(?:\\n\\n|$)`).exec(text);
    return (match?.[1] ?? '').split('\n').filter(Boolean).map((line) => line.split(/\s+/).filter((_, i) => i !== 2).join(' '));
  };
  return {
    status: /status: ([A-Z]+)/.exec(text)?.[1],
    flags: /flags: ([a-z ]+);/.exec(text)?.[1].split(' ') ?? [],
    answer: section('ANSWER'),
    authority: section('AUTHORITY'),
    additional: section('ADDITIONAL').filter((l) => !l.startsWith(';')),
  };
}

describe('authoritative DNS over UDP and TCP (dig)', () => {
  let z: string;
  beforeAll(async () => {
    z = await zone();
  });

  it('answers each record a client created, authoritatively, over UDP and TCP', async () => {
    for (const transport of [[], ['+tcp']]) {
      const apex = (await ask(z, 'A', transport));
      expect(apex).toMatchObject({ status: 'NOERROR', answer: [`${z}. 300 A 192.0.2.1`] });
      expect(apex.flags).toContain('aa');
    }
    expect((await ask(z, 'CAA')).answer).toEqual([`${z}. 3600 CAA 0 issuemail "letsencrypt.org"`]);
    expect((await ask(z, 'HTTPS')).answer).toEqual([`${z}. 300 HTTPS 1 . alpn="h2,h3" port=8443`]);
    expect((await ask(`_sip._tcp.${z}`, 'SRV')).answer).toEqual([`_sip._tcp.${z}. 300 SRV 10 5 5060 mail.${z}.`]);
    expect((await ask(z, 'MX'))).toMatchObject({ answer: [`${z}. 3600 MX 10 mail.${z}.`], additional: [`mail.${z}. 3600 A 192.0.2.25`] });
  });

  it('answers the SOA and NS of the zone, and NXDOMAIN or NODATA with the SOA (RFC 1034, RFC 2308)', async () => {
    const soa = (await ask(z, 'SOA'));
    // The timers the configuration gives (zonemaster's recommendations by default: refresh 4 h, retry 1 h, negative TTL 5 min).
    const { DNS_SOA_REFRESH: refresh, DNS_SOA_RETRY: retry, DNS_SOA_EXPIRE: expire, DNS_SOA_MINIMUM: minimum } = loadConfig({});
    expect([refresh, retry, minimum]).toEqual([14400, 3600, 300]);
    expect(soa.answer[0]).toMatch(new RegExp(`^${z}\\. 3600 SOA ns1\\.namefi\\.test\\. hostmaster\\.${z}\\. [0-9]+ ${refresh} ${retry} ${expire} ${minimum}$`));
    expect((await ask(z, 'NS')).answer).toEqual([`${z}. 3600 NS ns1.namefi.test.`, `${z}. 3600 NS ns2.namefi.test.`]);
    const nx = (await ask(`nope.x.deep.${z}`, 'A'));
    expect(nx).toMatchObject({ status: 'NXDOMAIN', answer: [] });
    expect(nx.authority[0]).toMatch(new RegExp(`^${z}\\. ${minimum} SOA `));
    expect((await ask(`mail.${z}`, 'TXT'))).toMatchObject({ status: 'NOERROR', answer: [], authority: [expect.stringMatching(/ SOA /)] });
    // An empty non-terminal exists: NODATA, and the wildcard above it does not answer for it (RFC 4592 §2.2.2).
    expect((await ask(`deep.${z}`, 'A'))).toMatchObject({ status: 'NOERROR', answer: [] });
  });

  it('answers wildcards in the name of the query (RFC 4592)', async () => {
    expect((await ask(`anything.${z}`, 'A')).answer).toEqual([`anything.${z}. 120 A 192.0.2.99`]);
    expect((await ask(`two.labels.${z}`, 'A')).answer).toEqual([`two.labels.${z}. 120 A 192.0.2.99`]);
    expect((await ask(`store1.shop.${z}`, 'MX')).answer).toEqual([`store1.shop.${z}. 120 MX 10 mail.${z}.`]);
    // A name that exists is never covered by the wildcard.
    expect((await ask(`mail.${z}`, 'A')).answer).toEqual([`mail.${z}. 3600 A 192.0.2.25`]);
    expect((await ask(`store1.shop.${z}`, 'A'))).toMatchObject({ status: 'NOERROR', answer: [] });
  });

  it('follows CNAME chains within the zone and stops at one that leaves it', async () => {
    expect((await ask(`a.${z}`, 'AAAA')).answer).toEqual([`a.${z}. 60 CNAME b.${z}.`, `b.${z}. 60 CNAME c.${z}.`, `c.${z}. 60 AAAA 2001:db8::c`]);
    expect((await ask(`www.${z}`, 'A')).answer).toEqual([`www.${z}. 600 CNAME ${z}.`, `${z}. 300 A 192.0.2.1`]);
    expect((await ask(`out.${z}`, 'A')).answer).toEqual([`out.${z}. 60 CNAME elsewhere.example.net.`]);
  });

  it('refers a name below a delegation to its name servers, with glue, not authoritatively', async () => {
    const referral = (await ask(`host.lab.${z}`, 'A'));
    expect(referral.status).toBe('NOERROR');
    expect(referral.flags).not.toContain('aa');
    expect(referral.answer).toEqual([]);
    expect(referral.authority.sort()).toEqual([`lab.${z}. 86400 NS ns.example.net.`, `lab.${z}. 86400 NS ns1.lab.${z}.`]);
    expect(referral.additional).toEqual([`ns1.lab.${z}. 86400 A 192.0.2.53`]);
  });

  it('refuses names it holds no zone for', async () => {
    expect((await ask('example.org', 'A')).status).toBe('REFUSED');
  });

  it('serves parking records while parked', async () => {
    const parked = await zone(true);
    expect((await ask(parked, 'A')).answer).toEqual([`${parked}. 60 A 34.123.0.161`]);
    expect((await ask(parked, 'AAAA')).answer).toEqual([`${parked}. 60 AAAA 2600:1900:4000:1102:8000::`]);
  });

  it('raises the SOA serial with every change, and answers the change at once', async () => {
    const serial = async () => Number((await ask(z, 'SOA')).answer[0].split(' ')[5]);
    const before = await serial();
    const created = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: z, type: 'TXT', name: 'fresh', rdata: 'new', ttl: 3600 });
    expect(created.status).toBe(200);
    expect(await serial()).toBe(before + 1);
    expect((await ask(`fresh.${z}`, 'TXT')).answer).toEqual([`fresh.${z}. 3600 TXT "new"`]);
    const deleted = await client.signed(OWNER_KEY, 'deleteDnsRecord', { zoneName: z, id: created.body.id });
    expect(deleted.status).toBe(200);
    expect(await serial()).toBe(before + 2);
    // Gone, so the wildcard answers in its place.
    expect((await ask(`fresh.${z}`, 'TXT'))).toMatchObject({ status: 'NOERROR', answer: [] });
  });

  it('answers from memory while subscribed to zone changes, and reads through to the database without the subscription', async () => {
    expect(service.dns?.zones.subscribed).toBe(true);
    const plain = zoneSource({ query: (sql, params) => service.services.db.query(sql, params) }, nameServerSettings(['ns1.namefi.test'], { forwardAddresses: ['127.0.0.1'] }));
    expect(plain.subscribed).toBe(false);
    const before = await plain.find(`www.${z}`);
    const created = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: z, type: 'TXT', name: 'plain', rdata: 'x', ttl: 3600 });
    expect(created.status).toBe(200);
    const after = await plain.find(`plain.${z}`);
    expect(after?.serial).toBe((before?.serial ?? 0) + 1);
    expect(after?.nodes.get('plain')?.get('TXT')?.rdatas).toEqual(['"x"']);
    expect((await client.signed(OWNER_KEY, 'deleteDnsRecord', { zoneName: z, id: created.body.id })).status).toBe(200);
  });

  it('transfers the whole zone (AXFR) to an allowed client, and BIND loads the transfer as the same records', async () => {
    const transfer = await dig(port, ['+nocookie', z, 'AXFR']);
    const text = transfer.split('\n').filter((l) => l && !l.startsWith(';')).join('\n');
    const bind = compileZone(z, `${text}\n`);
    if (!bind.ok) throw new Error(bind.log);
    const ours = parseZoneFile(text, { origin: z });
    const fromBind = parseZoneFile(bind.text, { origin: z });
    const rows = (records: typeof ours.records) => records.map((r) => `${r.name} ${r.ttl} ${r.type} ${r.rdata}`).sort();
    expect(rows(fromBind.records)).toEqual(rows(ours.records));
    const expected = RECORDS.map((r) => `${r.name} ${r.ttl} ${r.type} ${r.rdata.replaceAll('{zone}', z)}`).sort();
    expect(rows(ours.records)).toEqual(expected);
  });
});

describe('AXFR allow-list', () => {
  it('admits only the listed addresses, IPv4-mapped ones included', async () => {
    expect(mayTransfer('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(mayTransfer('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(mayTransfer('127.0.0.1', [])).toBe(false);
    expect(mayTransfer('192.0.2.7', ['127.0.0.1', '::1'])).toBe(false);
  });

  it('takes CIDRs like TRUSTED_PROXIES: an address inside one may transfer, one outside may not', () => {
    const allow = loadConfig({ DNS_AXFR_ALLOW: '10.0.0.0/8, 2001:db8::/32' }).DNS_AXFR_ALLOW;
    expect(mayTransfer('10.20.30.40', allow)).toBe(true);
    expect(mayTransfer('::ffff:10.1.2.3', allow)).toBe(true);
    expect(mayTransfer('2001:db8:1::53', allow)).toBe(true);
    expect(mayTransfer('11.0.0.1', allow)).toBe(false);
    expect(mayTransfer('2001:db9::53', allow)).toBe(false);
    expect(() => loadConfig({ DNS_AXFR_ALLOW: '10.0.0.0/8,secondary.internal' })).toThrow(/DNS_AXFR_ALLOW/);
    expect(loadConfig({ DNS_AXFR_ALLOW: '' }).DNS_AXFR_ALLOW).toEqual([]);
  });
});

describe('DNS over HTTPS (RFC 8484)', () => {
  let z: string;
  beforeAll(async () => {
    z = await zone();
  });
  const query = (name: string, type: string) => dnsPacket.encode({ type: 'query', id: 0, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: type as 'A', name }] });

  it('answers GET with ?dns= and POST with a dns-message body, with the smallest TTL as max-age', async () => {
    const get = await fetch(`${service.origin}/dns-query?dns=${query(z, 'A').toString('base64url')}`);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('application/dns-message');
    expect(get.headers.get('cache-control')).toBe('max-age=300');
    const answer = dnsPacket.decode(Buffer.from(await get.arrayBuffer()));
    expect(answer.answers?.map((a) => [a.name, a.type, (a as { data?: unknown }).data])).toEqual([[z, 'A', '192.0.2.1']]);

    const post = await fetch(`${service.origin}/dns-query`, { method: 'POST', headers: { 'content-type': 'application/dns-message' }, body: new Uint8Array(query(`nope.x.deep.${z}`, 'A')) });
    expect((dnsPacket.decode(Buffer.from(await post.arrayBuffer())) as { rcode?: string }).rcode).toBe('NXDOMAIN');
  });

  it('a request that asks for now (a browser fetch with cache: no-store) is answered no-store, the same answer otherwise', async () => {
    const url = `${service.origin}/dns-query?dns=${query(z, 'A').toString('base64url')}`;
    for (const headers of [{ 'cache-control': 'no-cache' }, { pragma: 'no-cache' }, { 'cache-control': 'no-store' }] as Array<Record<string, string>>) {
      const now = await fetch(url, { headers });
      expect(now.headers.get('cache-control')).toBe('no-store');
      expect(dnsPacket.decode(Buffer.from(await now.arrayBuffer())).answers?.map((a) => (a as { data?: unknown }).data)).toEqual(['192.0.2.1']);
    }
    const post = await fetch(`${service.origin}/dns-query`, { method: 'POST', headers: { 'content-type': 'application/dns-message', 'cache-control': 'no-cache' }, body: new Uint8Array(query(z, 'A')) });
    expect(post.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(url)).headers.get('cache-control')).toBe('max-age=300');
  });

  it('an operation of the API is kept by no HTTP cache', async () => {
    const records = await fetch(`${service.origin}/v-next/dns/records?zoneName=${z}`);
    expect(records.status).toBe(200);
    expect(records.headers.get('cache-control')).toBe('no-store');
  });

  it('answers bad requests with a 4xx error body, never a 5xx', async () => {
    const none = await fetch(`${service.origin}/dns-query`);
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect((await fetch(`${service.origin}/dns-query?dns=AAAA`)).status).toBe(400);
    const wrongType = await fetch(`${service.origin}/dns-query`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(wrongType.status).toBe(415);
    const garbage = await fetch(`${service.origin}/dns-query`, { method: 'POST', headers: { 'content-type': 'application/dns-message' }, body: new Uint8Array(20).fill(255) });
    expect(garbage.status).toBeLessThan(500);
  });

  it('a question whose name is not UTF-8 (found by the fuzz: it answered 500) is a FORMERR a client can read', async () => {
    // One 63-byte label holding a byte that is not UTF-8: read as text it grows past 63 bytes and cannot be echoed.
    const label = [0x3f, ...Array.from({ length: 62 }, () => 0x61), 0xc6];
    const bytes = new Uint8Array([0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, ...label, 0, 0, 1, 0, 1]);
    const get = await fetch(`${service.origin}/dns-query?dns=${Buffer.from(bytes).toString('base64url')}`);
    expect(get.status).toBe(200);
    const answer = dnsPacket.decode(Buffer.from(await get.arrayBuffer())) as { id?: number; rcode?: string };
    expect(answer).toMatchObject({ id: 0x1234, rcode: 'FORMERR' });
  });

  it('answers a question of any label bytes, in the zone (its wildcard echoes the name) or not, with a message a client can read', async () => {
    const zoneLabels = z.split('.').flatMap((l) => [l.length, ...Buffer.from(l)]);
    const label = fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 63 }), fc.uint8Array({ minLength: 55, maxLength: 63 }), fc.stringMatching(/^[a-z0-9-]{1,63}$/).map((t) => Buffer.from(t)));
    await fc.assert(
      fc.asyncProperty(fc.array(label, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.constantFrom(1, 16, 255), async (labels, inZone, type) => {
        const name = [...labels.flatMap((l) => [l.length, ...l]), ...(inZone ? zoneLabels : []), 0];
        fc.pre(name.length <= 255);
        const bytes = Buffer.from([0xab, 0xcd, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, ...name, 0, type, 0, 1]);
        const responses = await answerWire(bytes, service.dns!.zones, false);
        expect(responses).toHaveLength(1);
        expect(dnsPacket.decode(responses[0])).toMatchObject({ id: 0xabcd, type: 'response' });
      }),
      { numRuns: 300 },
    );
  });
});

describe('the packet cache (UDP threads and DoH), dropped per zone', () => {
  async function zoneWith(name: string, rdata: string) {
    await service.services.ownership.mint({ name, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
    expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: name, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
    const reply = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: name, records: [{ name: 'www', type: 'A', rdata, ttl: 300 }] });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }

  /** Sends each query over UDP from one socket and collects the answers' addresses, by ID. */
  async function overUdp(queries: Buffer[]): Promise<string[]> {
    const socket = createSocket('udp4');
    const answers = new Map<number, string>();
    let done = () => {};
    const all = new Promise<void>((resolve) => (done = resolve));
    socket.on('message', (m) => {
      const packet = dnsPacket.decode(m);
      answers.set(packet.id ?? 0, String((packet.answers?.[0] as { data?: string } | undefined)?.data));
      if (answers.size === queries.length) done();
    });
    await new Promise<void>((ready) => socket.bind(0, '127.0.0.1', () => ready()));
    queries.forEach((q, i) => {
      const copy = Buffer.from(q);
      copy.writeUInt16BE(i, 0);
      socket.send(copy, service.dns?.port as number, '127.0.0.1');
    });
    await Promise.race([all, new Promise((r) => setTimeout(r, 2000))]);
    socket.close();
    return queries.map((_, i) => answers.get(i) ?? 'no answer');
  }

  async function overDoh(q: Buffer): Promise<string> {
    const response = await fetch(`${service.baseUrl.replace(/\/v-next$/, '')}/dns-query?dns=${q.toString('base64url')}`);
    const packet = dnsPacket.decode(Buffer.from(await response.arrayBuffer()));
    return String((packet.answers?.[0] as { data?: string } | undefined)?.data);
  }

  it("never answers the old record once the change is announced, over UDP or DoH, and keeps another zone's answers", async () => {
    await zoneWith('stale-a.com', '192.0.2.1');
    await zoneWith('stale-b.com', '192.0.2.2');
    const a = dnsPacket.encode({ id: 0, type: 'query', flags: 0, questions: [{ name: 'www.stale-a.com', type: 'A' }] });
    const b = dnsPacket.encode({ id: 0, type: 'query', flags: 0, questions: [{ name: 'www.stale-b.com', type: 'A' }] });
    // Asked over both, so both zones' answers are kept (and copied to every UDP thread).
    expect(await overUdp([a, b, a, b])).toEqual(['192.0.2.1', '192.0.2.2', '192.0.2.1', '192.0.2.2']);
    expect([await overDoh(a), await overDoh(b)]).toEqual(['192.0.2.1', '192.0.2.2']);
    const cache = service.dns?.cache;
    const keptB = cache?.lookup(b);
    expect(keptB).toBeDefined();

    const announced = new Promise<void>((resolve) => {
      const stop = service.dns?.zones.onChange((zone) => {
        if (zone !== 'stale-a.com') return;
        stop?.();
        resolve();
      });
    });
    const { body } = await client.call<Array<{ id: string; name: string }>>('getDnsRecords', { query: { zoneName: 'stale-a.com' } });
    const updated = await client.signed(OWNER_KEY, 'updateDnsRecord', { zoneName: 'stale-a.com', id: body[0].id, name: 'www', type: 'A', rdata: '192.0.2.11', ttl: 300 });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    await announced;
    // From the moment the main thread knows of the change, no thread answers the old record.
    expect(new Set(await overUdp(Array.from({ length: 40 }, () => a)))).toEqual(new Set(['192.0.2.11']));
    expect(await overDoh(a)).toBe('192.0.2.11');
    // The other zone's answer stayed kept, the same entry, and the changed zone's is kept anew.
    expect(cache?.lookup(b)).toEqual(keptB);
    expect(await overUdp([b])).toEqual(['192.0.2.2']);
    expect(cache?.lookup(a)).toBeDefined();
  });
});
