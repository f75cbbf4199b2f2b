/**
 * The service's DNS client against a real local server written with dns-packet (UDP and TCP on one port): an answer
 * over UDP, a truncated one asked again over TCP, silence bounded by the timeout, a malformed answer, compressed names
 * written out, a zone transfer's stream; and the resolution policy over it (own zones first, CNAMEs followed, at most 8).
 */
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import * as dnsPacket from 'dns-packet';
import type { Answer, Packet } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, transfer, type DnsServer } from './client.ts';
import { storedAnswers } from './reply.ts';
import { nameResolution, type Answered } from './resolution.ts';

const a = (name: string, data: string): Answer => ({ name, type: 'A', class: 'IN', ttl: 300, data });
const soa = (zone: string): Answer => ({
  name: zone,
  type: 'SOA',
  class: 'IN',
  ttl: 3600,
  data: { mname: `ns1.${zone}`, rname: `hostmaster.${zone}`, serial: 7, refresh: 3600, retry: 600, expire: 86400, minimum: 300 },
});
const reply = (query: Packet, answers: Answer[], flags = 0): Buffer =>
  dnsPacket.encode({ type: 'response', id: query.id, flags: dnsPacket.AUTHORITATIVE_ANSWER | flags, questions: query.questions, answers });

/** A reply whose CNAME and MX data point back into the question's name (RFC 1035 §4.1.4), as real servers write them. */
function compressedReply(id: number): Buffer {
  const header = [id >> 8, id & 0xff, 0x84, 0x00, 0, 1, 0, 2, 0, 0, 0, 0];
  // At offset 12: 6 "packed" 4 "test" 0, type MX (15), class IN.
  const question = [6, ...Buffer.from('packed'), 4, ...Buffer.from('test'), 0, 0, 15, 0, 1];
  const ttl = [0, 0, 1, 44];
  // packed.test CNAME www.packed.test (www + a pointer to offset 12).
  const cname = [0xc0, 12, 0, 5, 0, 1, ...ttl, 0, 6, 3, ...Buffer.from('www'), 0xc0, 12];
  // packed.test MX 10 mail.packed.test.
  const mx = [0xc0, 12, 0, 15, 0, 1, ...ttl, 0, 9, 0, 10, 4, ...Buffer.from('mail'), 0xc0, 12];
  return Buffer.from([...header, ...question, ...cname, ...mx]);
}

/** Answers by the question's name; records what it was asked and how. */
function answer(message: Buffer, over: 'udp' | 'tcp', seen: string[]): Buffer[] {
  const asked = dnsPacket.decode(message);
  const name = asked.questions?.[0]?.name ?? '';
  seen.push(`${over} ${name} ${asked.questions?.[0]?.type}`);
  switch (name) {
    case 'one.test':
      return [reply(asked, [a(name, '192.0.2.1')])];
    case 'big.test':
      // Too big for UDP: the flag alone, then the whole answer over TCP.
      return over === 'udp'
        ? [reply(asked, [], dnsPacket.TRUNCATED_RESPONSE)]
        : [reply(asked, Array.from({ length: 40 }, (_, i) => ({ name, type: 'TXT', class: 'IN', ttl: 60, data: `record ${i} ${'x'.repeat(40)}` }) as Answer))];
    case 'silent.test':
      return [];
    case 'broken.test':
      // The query's id, an answer count of one, and nothing after the question.
      return [Buffer.concat([reply(asked, []).subarray(0, 6), Buffer.from([0, 1, 0, 0, 0, 0]), reply(asked, []).subarray(12)])];
    case 'packed.test':
      return [compressedReply(asked.id ?? 0)];
    case 'zone.test':
      return [reply(asked, [soa(name), a(`www.${name}`, '192.0.2.80')]), reply(asked, [a(`api.${name}`, '192.0.2.81'), soa(name)])];
    case 'old.test':
      // A server from before EDNS: a query with an OPT record is a format error.
      return asked.additionals?.some((r) => r.type === 'OPT') ? [dnsPacket.encode({ type: 'response', id: asked.id, flags: 1, questions: asked.questions })] : [reply(asked, [a(name, '192.0.2.2')])];
    case 'elsewhere.test':
      return [reply(asked, [a(name, '198.51.100.7')])];
    default:
      return [dnsPacket.encode({ type: 'response', id: asked.id, flags: 3, questions: asked.questions })];
  }
}

let udp: Socket;
let tcp: Server;
let server: DnsServer;
const seen: string[] = [];

beforeAll(async () => {
  // UDP first on a port the OS picks, then TCP on the same number (tried again if that one is taken).
  for (let attempt = 0; ; attempt += 1) {
    udp = createSocket('udp4');
    udp.on('message', (message, from) => {
      for (const out of answer(message, 'udp', seen)) udp.send(out, from.port, from.address);
    });
    await new Promise<void>((ready) => udp.bind(0, '127.0.0.1', () => ready()));
    const port = udp.address().port;
    tcp = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', (data: Buffer) => {
        for (const out of answer(data.subarray(2, 2 + data.readUInt16BE(0)), 'tcp', seen)) socket.write(Buffer.concat([Buffer.from([out.length >> 8, out.length & 0xff]), out]));
      });
    });
    const listening = await new Promise<boolean>((done) => {
      tcp.once('error', () => done(false));
      tcp.listen(port, '127.0.0.1', () => done(true));
    });
    if (listening) {
      server = { host: '127.0.0.1', port };
      return;
    }
    udp.close();
    if (attempt === 5) throw new Error('no port free for both UDP and TCP');
  }
});

afterAll(async () => {
  udp?.close();
  await new Promise((done) => tcp?.close(done));
});

describe('the DNS client', () => {
  it('asks over UDP and reads the answer in the stored form', async () => {
    const asked = await query(server, 'one.test', 'A', { timeoutMs: 1000 });
    expect(asked.ok && storedAnswers(asked.reply.answers)).toEqual([{ name: 'one.test', type: 'A', ttl: 300, rdata: '192.0.2.1' }]);
    expect(asked.sent).toBe(1);
    expect(seen.filter((s) => s.includes('one.test'))).toEqual(['udp one.test A']);
  });

  it('asks a truncated answer again over TCP, unless told not to', async () => {
    const whole = await query(server, 'big.test', 'TXT', { timeoutMs: 1000 });
    expect(whole.sent).toBe(2);
    expect(whole.ok && whole.reply.answers).toHaveLength(40);
    expect(seen.filter((s) => s.includes('big.test'))).toEqual(['udp big.test TXT', 'tcp big.test TXT']);

    const truncated = await query(server, 'big.test', 'TXT', { timeoutMs: 1000, tcpOnTruncation: false });
    expect(truncated).toMatchObject({ ok: true, sent: 1, reply: { truncated: true, answers: [] } });
  });

  it('offers EDNS when asked to, and asks a server that does not know it again without', async () => {
    expect(await query(server, 'one.test', 'A', { timeoutMs: 1000, edns: true })).toMatchObject({ ok: true, sent: 1 });
    const old = await query(server, 'old.test', 'A', { timeoutMs: 1000, edns: true });
    expect(old.sent).toBe(2);
    expect(old.ok && storedAnswers(old.reply.answers).map((r) => r.rdata)).toEqual(['192.0.2.2']);
  });

  it('gives up on a server that stays silent after the timeout, and says so', async () => {
    const started = performance.now();
    const asked = await query(server, 'silent.test', 'A', { timeoutMs: 300 });
    const waited = performance.now() - started;
    expect(asked).toEqual({ ok: false, failure: 'timeout', reason: 'no answer within 0.3 s', sent: 1 });
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(1500);
  });

  it('refuses a malformed answer instead of reading it', async () => {
    const asked = await query(server, 'broken.test', 'A', { timeoutMs: 1000 });
    expect(asked.ok).toBe(false);
    expect(!asked.ok && asked.failure).toBe('malformed');
    expect(!asked.ok && asked.reason).toMatch(/^a malformed answer \(/);
  });

  it('writes out compressed names in record data (CNAME, MX)', async () => {
    const asked = await query(server, 'packed.test', 'MX', { timeoutMs: 1000 });
    expect(asked.ok && storedAnswers(asked.reply.answers)).toEqual([
      { name: 'packed.test', type: 'CNAME', ttl: 300, rdata: 'www.packed.test.' },
      { name: 'packed.test', type: 'MX', ttl: 300, rdata: '10 mail.packed.test.' },
    ]);
  });

  it('reads a zone transfer message by message until the reader has its result', async () => {
    const messages: string[][] = [];
    const result = await transfer(server, 'zone.test', { idleMs: 1000, totalMs: 2000 }, (reply) => {
      messages.push(storedAnswers(reply.answers).map((r) => `${r.name} ${r.type}`));
      return messages.length === 2 ? 'done' : undefined;
    });
    expect(result).toBe('done');
    expect(messages).toEqual([
      ['zone.test SOA', 'www.zone.test A'],
      ['api.zone.test A', 'zone.test SOA'],
    ]);
    // The server closes nothing itself: a reader that wants more waits, bounded by the idle time.
    const waiting = await transfer(server, 'zone.test', { idleMs: 300, totalMs: 2000 }, () => undefined);
    expect(waiting).toMatchObject({ ok: false, failure: 'timeout' });
  });
});

describe('the resolution policy over it', () => {
  /** Own zones: own.test, where www is a CNAME to elsewhere.test and loop0 … loop9 each a CNAME to the next. */
  const ownZones = async (name: string): Promise<Answered | null> => {
    if (!name.endsWith('own.test')) return null;
    const cname = (target: string) => ({ rcode: 0, answers: [{ name, type: 'CNAME' as const, ttl: 60, rdata: `${target}.` }] });
    if (name === 'www.own.test') return cname('elsewhere.test');
    const loop = /^loop(\d+)\.own\.test$/.exec(name);
    if (loop) return cname(`loop${Number(loop[1]) + 1}.own.test`);
    return { rcode: 3, answers: [] };
  };
  const withServer = () => nameResolution({ ownZones, resolvers: [`${server.host}:${server.port}`], timeoutMs: 500, tries: 1 });

  it('answers from its own zones first, then follows a CNAME out to DNS_RESOLVER', async () => {
    expect(await withServer()('nothing.own.test', 'A')).toEqual({ status: 'nxdomain', from: 'zone', queries: 0 });
    const found = await withServer()('www.own.test', 'A');
    expect(found).toMatchObject({ status: 'ok', from: 'resolver', ttl: 60, queries: 1, answers: [{ rdata: '198.51.100.7' }] });
  });

  it('stops after 8 CNAMEs, and without DNS_RESOLVER never asks outside its zones', async () => {
    expect(await withServer()('loop0.own.test', 'A')).toMatchObject({ status: 'unresolved', reason: 'more than 8 CNAMEs in a row from loop0.own.test' });
    const before = seen.length;
    const alone = nameResolution({ ownZones, resolvers: [], timeoutMs: 500, tries: 1 });
    expect(await alone('www.own.test', 'A')).toEqual({ status: 'unresolved', reason: "elsewhere.test lies outside this service's zones and no DNS_RESOLVER is configured", queries: 0 });
    expect(seen.length).toBe(before);
  });
});
