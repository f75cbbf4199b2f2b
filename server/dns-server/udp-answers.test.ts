import { createSocket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindToolsMissing, dig } from '../../test/support/bind.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { clientNetwork } from '../net/addresses.ts';
import { rrlPerSecond } from './serving-options.ts';

if (bindToolsMissing()) throw new Error(bindToolsMissing() as string);

const [OWNER_KEY] = TEST_KEYS;
const RRL = 5;
let service: TestService;
let client: TestClient;
let port: number;

beforeAll(async () => {
  service = await startTestService({ DNS_PORT: '0', DNS_RRL_PER_SECOND: String(RRL) });
  client = testClient(service);
  port = service.dns?.port as number;
});
afterAll(() => service.destroy());

async function zoneWith(name: string, records: Array<{ name: string; type: string; rdata: string; ttl: number }>) {
  await service.services.ownership.mint({ name, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: name, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
  const reply = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: name, records });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/** Sends `count` copies of one query from one socket (one address) as fast as it can and collects what comes back. */
async function flood(query: Buffer, count: number) {
  const socket = createSocket('udp4');
  const answers: Buffer[] = [];
  socket.on('message', (m) => answers.push(m));
  await new Promise<void>((ready) => socket.bind(0, '127.0.0.1', () => ready()));
  for (let i = 0; i < count; i += 1) {
    const copy = Buffer.from(query);
    copy.writeUInt16BE(i, 0);
    await new Promise<void>((sent) => socket.send(copy, port, '127.0.0.1', () => sent()));
  }
  // Answers still on their way: wait until none arrived for 300 ms.
  for (let before = -1; before !== answers.length; ) {
    before = answers.length;
    await new Promise((r) => setTimeout(r, 300));
  }
  socket.close();
  return answers.map((a) => dnsPacket.decode(a));
}

describe('UDP answers that cannot be turned into a weapon', () => {
  it(`limits a flood of one question from one address: ${RRL} full answers a second, every second limited one truncated, the rest dropped`, async () => {
    const zone = 'rrl-flood.com';
    await zoneWith(zone, Array.from({ length: 5 }, (_, i) => ({ name: 'big', type: 'TXT', rdata: `"${'x'.repeat(40)} ${i}"`, ttl: 300 })));
    const query = dnsPacket.encode({ id: 1, type: 'query', flags: 0, questions: [{ name: `big.${zone}`, type: 'TXT' }] });
    const started = Date.now();
    const answers = await flood(query, 200);
    const seconds = Math.ceil((Date.now() - started) / 1000);
    const full = answers.filter((a) => (a.answers ?? []).length === 5);
    const truncated = answers.filter((a) => a.flag_tc && (a.answers ?? []).length === 0);
    const bytesOut = answers.reduce((n, a) => n + dnsPacket.encode(a).length, 0);
    const bytesIn = 200 * query.length;
    console.log(`RRL ${RRL}/s: 200 queries (${bytesIn} bytes) → ${full.length} full answers, ${truncated.length} truncated, ${200 - answers.length} dropped; ${(bytesOut / bytesIn).toFixed(2)} bytes out per byte in`);
    expect(full.length).toBeGreaterThanOrEqual(RRL);
    expect(full.length).toBeLessThanOrEqual(RRL * (seconds + 1));
    expect(truncated.length).toBeGreaterThanOrEqual(Math.floor((200 - full.length) / 2) - seconds);
    expect(full.length + truncated.length).toBe(answers.length);
    // A full answer is ~13× the query; limited, the flood returns less than it sends.
    expect(bytesOut / bytesIn).toBeLessThan(1.5);
  });

  it('never limits a client that sends back a valid server cookie (it is no spoofed address), and still limits one with a client cookie alone', async () => {
    const zone = 'rrl-cookie.com';
    await zoneWith(zone, Array.from({ length: 5 }, (_, i) => ({ name: 'big', type: 'TXT', rdata: `"${'z'.repeat(40)} ${i}"`, ttl: 300 })));
    const withCookie = (cookie: Buffer) =>
      dnsPacket.encode({ id: 1, type: 'query', flags: 0, questions: [{ name: `big.${zone}`, type: 'TXT' }], additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, options: [{ code: 10, data: cookie }] } as never] });
    const cookieOf = (answer: dnsPacket.Packet) => (answer.additionals?.find((a) => a.type === 'OPT') as { options?: Array<{ code: number; data: Buffer }> } | undefined)?.options?.find((o) => o.code === 10)?.data;
    const client = Buffer.from('c00c1e5c00c1e5c0', 'hex');
    const [first] = await flood(withCookie(client), 1);
    const full = cookieOf(first) as Buffer;
    expect(full.subarray(0, 8)).toEqual(client);
    expect(full.length).toBe(24);
    const proven = await flood(withCookie(full), 100);
    expect(proven.filter((a) => (a.answers ?? []).length === 5 && cookieOf(a)?.equals(full)).length).toBe(100);
    const started = Date.now();
    const unproven = await flood(withCookie(client), 100);
    const seconds = Math.ceil((Date.now() - started) / 1000);
    expect(unproven.filter((a) => (a.answers ?? []).length === 5).length).toBeLessThanOrEqual(RRL * (seconds + 1));
  });

  it('answers a cookie from the cache whether it is the last option or other options follow it', async () => {
    const zone = 'cookie-order.com';
    await zoneWith(zone, [{ name: 'www', type: 'A', rdata: '192.0.2.7', ttl: 300 }]);
    const padding = { code: 12, data: Buffer.alloc(6) };
    const ask = (options: Array<{ code: number; data: Buffer }>) =>
      dnsPacket.encode({ id: 1, type: 'query', flags: 0, questions: [{ name: `www.${zone}`, type: 'A' }], additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, options } as never] });
    const cookieOf = (answer: dnsPacket.Packet) => (answer.additionals?.find((a) => a.type === 'OPT') as { options?: Array<{ code: number; data: Buffer }> } | undefined)?.options?.find((o) => o.code === 10)?.data;
    const [first] = await flood(ask([{ code: 10, data: Buffer.from('0123456789abcdef', 'hex') }, padding]), 1);
    const full = cookieOf(first) as Buffer;
    expect(full.length).toBe(24);
    // The first of each is a miss the main thread answers (the query handed over as it came), the rest hits a UDP
    // thread answers from the table: each the record and the client's valid server cookie, so RRL lets all through.
    for (const options of [[{ code: 10, data: full }], [{ code: 10, data: full }, padding]]) {
      const answers = await flood(ask(options), 20);
      expect(answers.filter((a) => ((a.flags ?? 0) & 15) === 0 && (a.answers?.[0] as { data?: string } | undefined)?.data === '192.0.2.7' && cookieOf(a)?.equals(full)).length).toBe(20);
    }
  });

  it('limits per client network, IPv4 /24 and IPv6 /56', () => {
    expect(clientNetwork('192.0.2.1')).toBe(clientNetwork('192.0.2.254'));
    expect(clientNetwork('192.0.2.1')).not.toBe(clientNetwork('192.0.3.1'));
    expect(clientNetwork('::ffff:192.0.2.1')).toBe(clientNetwork('192.0.2.9'));
    expect(clientNetwork('2001:db8:0:ab::1')).toBe(clientNetwork('2001:db8:0:ff::2'));
    expect(clientNetwork('2001:db8::1')).not.toBe(clientNetwork('2001:db8:0:100::1'));
  });

  it('is on by default (20 a second) only where the server can be reached from elsewhere', () => {
    expect(rrlPerSecond({ HOST: '127.0.0.1', DNS_RRL_PER_SECOND: undefined })).toBe(0);
    expect(rrlPerSecond({ HOST: '::1', DNS_RRL_PER_SECOND: undefined })).toBe(0);
    expect(rrlPerSecond({ HOST: '0.0.0.0', DNS_RRL_PER_SECOND: undefined })).toBe(20);
    expect(rrlPerSecond({ HOST: '192.0.2.53', DNS_RRL_PER_SECOND: 0 })).toBe(0);
    expect(rrlPerSecond({ HOST: '127.0.0.1', DNS_RRL_PER_SECOND: 7 })).toBe(7);
  });

  it('answers ANY with one RRset (RFC 8482)', async () => {
    const zone = 'any-minimal.com';
    await zoneWith(zone, [
      { name: '@', type: 'A', rdata: '192.0.2.1', ttl: 300 },
      { name: '@', type: 'MX', rdata: `10 mail.${zone}.`, ttl: 300 },
      { name: '@', type: 'TXT', rdata: '"v=spf1 -all"', ttl: 300 },
    ]);
    for (const transport of [[], ['+tcp']]) {
      const text = await dig(port, ['+norec', ...transport, zone, 'ANY']);
      const answers = /;; ANSWER SECTION:\n([\s\S]*?)\n\n/.exec(text)?.[1].split('\n') ?? [];
      expect(new Set(answers.map((l) => l.split(/\s+/)[3])).size, text).toBe(1);
    }
  });
});

describe('the packet cache', () => {
  it('answers a changed record at once and keys answers by the EDNS buffer size', async () => {
    const zone = 'packet-cache.com';
    await zoneWith(zone, [
      { name: 'www', type: 'A', rdata: '192.0.2.10', ttl: 300 },
      ...Array.from({ length: 15 }, (_, i) => ({ name: 'wide', type: 'TXT', rdata: `"${'y'.repeat(30)} ${i}"`, ttl: 300 })),
    ]);
    // Asked twice: the second comes from the cache.
    expect((await dig(port, ['+short', '+nocookie', `www.${zone}`, 'A'])).trim()).toBe('192.0.2.10');
    expect((await dig(port, ['+short', '+nocookie', `www.${zone}`, 'A'])).trim()).toBe('192.0.2.10');
    const { body } = await client.call<Array<{ id: string; name: string }>>('getDnsRecords', { query: { zoneName: zone } });
    const www = body.find((r) => r.name === 'www');
    const updated = await client.signed(OWNER_KEY, 'updateDnsRecord', { zoneName: zone, id: www?.id, name: 'www', type: 'A', rdata: '192.0.2.11', ttl: 300 });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const deadline = Date.now() + 1000;
    let seen = '';
    while (Date.now() < deadline && (seen = (await dig(port, ['+short', '+nocookie', `www.${zone}`, 'A'])).trim()) !== '192.0.2.11');
    expect(seen).toBe('192.0.2.11');
    // The same question with a smaller buffer is a different answer: truncated, not the cached full one.
    expect(await dig(port, ['+norec', '+bufsize=1232', '+ignore', `wide.${zone}`, 'TXT'])).toMatch(/flags: qr aa;.*ANSWER: 15/);
    const truncated = await dig(port, ['+norec', '+bufsize=512', '+ignore', '+cookie', `wide.${zone}`, 'TXT']);
    expect(truncated).toMatch(/flags: qr aa tc;/);
    // Truncated, it keeps its OPT and the server cookie (appended within the 512 bytes the client takes).
    expect(truncated).toMatch(/; COOKIE: [0-9a-f]{48} \(good\)/);
    expect(Number(/MSG SIZE {2}rcvd: (\d+)/.exec(truncated)?.[1])).toBeLessThanOrEqual(512);
    expect(await dig(port, ['+norec', '+bufsize=1232', '+ignore', `wide.${zone}`, 'TXT'])).toMatch(/ANSWER: 15/);
  });
});

describe('DNS over HTTPS', () => {
  it('refuses a body over 65,535 bytes and counts each query against the client budget', async () => {
    const url = `${service.baseUrl.replace(/\/v-next$/, '')}/dns-query`;
    const big = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/dns-message' }, body: new Uint8Array(65_536) });
    expect(big.status).toBe(413);
    const query = dnsPacket.encode({ id: 0, type: 'query', flags: 0, questions: [{ name: 'packet-cache.com', type: 'A' }] });
    const first = await fetch(`${url}?dns=${query.toString('base64url')}`);
    const second = await fetch(`${url}?dns=${query.toString('base64url')}`);
    expect(first.status).toBe(200);
    expect(Number(second.headers.get('RateLimit-Remaining'))).toBe(Number(first.headers.get('RateLimit-Remaining')) - 1);
  });
});
