import type { ManagedSettings } from '#core/dns/managed.ts';
import { plainName, toRelative, withTrailingDot } from '#core/dns/names.ts';
import type { AnswerCode } from '#core/wire/analytics.ts';
import { createSocket, type RemoteInfo } from 'node:dgram';
import { createServer, type Socket } from 'node:net';
import { isIP } from 'node:net';
import * as dnsPacket from 'dns-packet';
import type { Packet } from 'dns-packet';
import type { Queryable } from '../db/database.ts';
import { inAny, parseCidr } from '../net/addresses.ts';
import { packetCache, withId, type CachedAnswer, type PacketCache } from './packet-cache.ts';
import { noCounting, type QueryCounter, type Tally } from './query-counts.ts';
import { resolve, RCODE } from './resolve.ts';
import { responseRateLimiter, truncatedAnswer } from './rrl.ts';
import { incrementalTransfer, type SecondaryServing } from './secondaries.ts';
import { signAnswer, tsigFailure } from './tsig.ts';
import { answerUpdate, checkTsig, isUpdate, type KeyedServing, type Peer } from './keyed.ts';
import { startUdpThreads } from './udp-threads.ts';
import { DEFAULT_SOA, type NameServerSettings } from './zone-snapshot.ts';
import { ZoneBeingSigned, zoneSource, type ZoneSource } from './zone-source.ts';

const CLASSIC_UDP_SIZE = 512;
/** What this server offers in EDNS (RFC 6891); 1232 avoids IP fragmentation (DNS flag day 2020). */
const EDNS_UDP_SIZE = 1232;
const FLAG_TC = 0x200;

export interface DnsServerOptions {
  /** The zones to answer (shared with DoH); made from `db` when absent. */
  zones?: ZoneSource;
  /** The forwarder's addresses, for zones made from `db`. */
  forwardAddresses: readonly string[];
  db: Queryable;
  host: string;
  port: number;
  nameservers: string[];
  /** Addresses that may transfer zones (AXFR). */
  axfrAllow: string[];
  /** UDP answers per second per client network and answer (RRL); 0 = unlimited. */
  rrlPerSecond?: number;
  /** TSIG keys and the IXFR journal, for secondaries. */
  secondaries?: SecondaryServing;
  /** Query analytics: every answer counted per zone and minute; none when absent. */
  counter?: QueryCounter;
  /** The packet cache shared with DoH (`answerCache`); one of its own when absent. */
  cache?: AnswerCache;
  /** Threads answering UDP from the packet cache (udp-threads.ts); 0 = the main thread alone. */
  udpThreads?: number;
  /** The standard doors: API keys' TSIG forms, DNS UPDATE, keyed transfers (server/doors/update/); none: UPDATE is refused. */
  keyed?: KeyedServing;
}

/** Encoded answers, shared by UDP and DoH, with what each is counted as (null: no zone). */
export type AnswerCache = PacketCache<Tally | null>;

/**
 * The packet cache for `zones`: a zone's answers dropped whenever it changes, every answer when the subscription is
 * lost; the answers of `everyChange` (the catalog zone) with any change.
 */
export function answerCache(zones: ZoneSource, everyChange: readonly string[] = []): AnswerCache {
  const cache = packetCache<Tally | null>(everyChange);
  zones.onChange((zone) => cache.drop(zone));
  return cache;
}

/**
 * Answers a query through the packet cache: the kept entry when there is one (its answers carry the ID of the query
 * that filled it: see `withId`), else resolved and kept. Nothing is kept while the zones are not subscribed to
 * changes (a change could not drop it). Null when there is nothing to send.
 */
export async function cachedAnswer(query: Buffer, zones: ZoneSource, cache: AnswerCache, secondaries?: SecondaryServing, peer: Peer = {}): Promise<{ entry: CachedAnswer<Tally | null>; hit: boolean } | null> {
  const kept = zones.subscribed ? cache.lookup(query) : undefined;
  if (kept) return { entry: kept, hit: true };
  const token = cache.begin();
  let tally: Tally | null = null;
  const [full] = await answerWire(query, zones, false, secondaries, (t) => void (tally = t), peer);
  if (!full) return null;
  const entry: CachedAnswer<Tally | null> = { full, udp: fitUdp(full, query), zone: (tally as Tally | null)?.zone ?? null, meta: tally };
  if (zones.subscribed) cache.set(query, entry, token);
  return { entry, hit: false };
}

export interface DnsServer {
  port: number;
  zones: ZoneSource;
  /** The packet cache (shared with DoH when the service passed it). */
  cache: AnswerCache;
  close(): Promise<void>;
}

export function nameServerSettings(nameservers: string[], managed: ManagedSettings): NameServerSettings {
  return { ...managed, nameservers: nameservers.map((n) => withTrailingDot(n).toLowerCase()), soa: DEFAULT_SOA, nsTtl: 3600 };
}

/** Whether a peer may transfer zones: its address (IPv4-mapped or not) in one of the allow-list's addresses and CIDRs. */
export function mayTransfer(address: string | undefined, allow: readonly string[]): boolean {
  return inAny(address, allow.flatMap((entry) => parseCidr(entry) ?? []));
}

/**
 * Answers one wire-format query: the response messages, or a FORMERR when the message cannot be read but its id
 * can, or nothing at all for bytes that are not DNS.
 */
export async function answerWire(
  bytes: Buffer,
  zones: ZoneSource,
  transferAllowed: boolean,
  secondaries?: SecondaryServing,
  onTally?: (tally: Tally) => void,
  peer: Peer = {},
): Promise<Buffer[]> {
  // UPDATE (RFC 2136) before dns-packet reads it: its records may have no data, which dns-packet cannot read.
  if (isUpdate(bytes)) return answerUpdate(bytes, zones, secondaries?.keys ?? [], peer);
  let query: Packet;
  let zone: string | null = null;
  let dnssecOk = false;
  const onZone = onTally ? (z: string) => void (zone = z) : undefined;
  try {
    query = dnsPacket.decode(bytes);
  } catch {
    return bytes.length < 12 ? [] : [formatError(bytes.readUInt16BE(0))];
  }
  let responses: Buffer[];
  try {
    // TSIG checked first: a transfer key (required for transfers when keys are set) or an API key's TSIG form.
    const signed = secondaries || peer.keyed ? await checkTsig(bytes, secondaries?.keys ?? [], peer.keyed) : ({ kind: 'none' } as const);
    if (signed.kind === 'error') return [tsigFailure(dnsPacket.encode({ id: query.id ?? 0, type: 'response', flags: 0, questions: query.questions ?? [] }), signed)];
    if (signed.kind === 'ok') query.additionals = (query.additionals ?? []).filter((a) => (a.type as string) !== 'TSIG');
    // A transfer signed with an API key's form: its scope and addresses decide, whatever DNS_AXFR_ALLOW says.
    const keyedTransfer = signed.kind === 'ok' && signed.key.apiKeyId && peer.keyed && isTransfer(query) ? await peer.keyed.mayTransfer(signed.key, plainName(query.questions![0].name), peer.address) : undefined;
    const mayTransferHere = keyedTransfer ?? (transferAllowed && (!secondaries || secondaries.keys.length === 0 || (signed.kind === 'ok' && !signed.key.apiKeyId)));
    const opt = query.additionals?.find((a) => a.type === 'OPT') as { flags?: number } | undefined;
    // DO (RFC 3225): the client wants DNSSEC records; the answer echoes the bit.
    dnssecOk = ((opt?.flags ?? 0) & dnsPacket.DNSSEC_OK) !== 0;
    const packets = (secondaries && mayTransferHere && (await incrementalTransfer(query, zones, secondaries))) || (await resolve(query, { zones, mayTransfer: mayTransferHere, dnssecOk, onZone }));
    if (zone !== null && onTally) onTally(tallyOf(query, zone, packets[0], dnssecOk));
    if (opt) for (const r of packets) r.additionals = [...(r.additionals ?? []), { type: 'OPT', name: '.', udpPayloadSize: EDNS_UDP_SIZE, flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0, options: [] } as never];
    const encoded = packets.map((r) => dnsPacket.encode(r));
    responses = signed.kind === 'ok' ? signAnswer(encoded, signed.key, signed.mac) : encoded;
  } catch (error) {
    // A big zone signed for the first time since the start answers SERVFAIL meanwhile: expected, not logged.
    if (!(error instanceof ZoneBeingSigned)) console.error('DNS: a query failed', error);
    if (zone !== null && onTally) onTally({ ...tallyOf(query, zone, undefined, dnssecOk), rcode: 'SERVFAIL' });
    try {
      responses = [dnsPacket.encode({ id: query.id ?? 0, type: 'response', flags: RCODE.SERVFAIL, questions: query.questions ?? [] })];
    } catch {
      responses = [];
    }
  }
  // dns-packet reads a label's bytes as UTF-8: a name that is not UTF-8 is echoed longer than it came (a label over 63
  // bytes), which is no DNS message at all. Such a query could not be interpreted: FORMERR, as for unreadable bytes.
  // Only a query with a name that is not plain text can do that, so only its answer is read back (not every
  // message of a transfer, nor every ordinary answer).
  if (responses.length === 0) return [formatError(query.id ?? 0)];
  return namesOf(query).every(echoesAsSent) || responses.every(readable) ? responses : [formatError(query.id ?? 0)];
}

const isTransfer = (query: Packet) => (query.questions ?? []).length === 1 && ['AXFR', 'IXFR'].includes(String(query.questions![0].type));

const ANSWER_NAMES: Record<number, AnswerCode> = { [RCODE.NXDOMAIN]: 'NXDOMAIN', [RCODE.REFUSED]: 'REFUSED', [RCODE.SERVFAIL]: 'SERVFAIL' };

/** How an answer is counted: its name relative to the zone, its type as named (RFC 3597's TYPE65 for others) and the answer. */
function tallyOf(query: Packet, zone: string, response: Packet | undefined, dnssecOk: boolean): Tally {
  const question = (query.questions ?? [])[0];
  const type = String(question?.type ?? '');
  const rcodeNumber = (response?.flags ?? 0) & 0xf;
  const rcode: AnswerCode = rcodeNumber === RCODE.NOERROR ? ((response?.answers ?? []).length > 0 ? 'NOERROR' : 'NODATA') : (ANSWER_NAMES[rcodeNumber] ?? 'SERVFAIL');
  return { zone, name: toRelative(plainName(question?.name ?? zone), zone), type: type.startsWith('UNKNOWN_') ? `TYPE${type.slice(8)}` : type, rcode, dnssecOk };
}

function namesOf(query: Packet): string[] {
  return [query.questions, query.answers, query.authorities, query.additionals].flatMap((section) => (section ?? []).map((r) => r.name));
}

/**
 * A name of printable ASCII labels, none empty: dns-packet writes it back in as many bytes as it read (a label
 * holding a dot byte comes back as two labels of the same length in all), so an answer that echoes it is readable.
 */
function echoesAsSent(name: string): boolean {
  return name === '.' || /^[\x20-\x2d\x2f-\x7e]+(\.[\x20-\x2d\x2f-\x7e]+)*$/.test(name);
}

function formatError(id: number): Buffer {
  return dnsPacket.encode({ id, type: 'response', flags: RCODE.FORMERR, questions: [] });
}

function readable(message: Buffer): boolean {
  try {
    dnsPacket.decode(message);
    return true;
  } catch {
    return false;
  }
}

/** Over UDP, an answer larger than the client can take is sent truncated (TC) so it asks again over TCP. */
function fitUdp(response: Buffer, query: Buffer): Buffer {
  let limit = CLASSIC_UDP_SIZE;
  try {
    const opt = dnsPacket.decode(query).additionals?.find((a) => a.type === 'OPT') as { udpPayloadSize?: number } | undefined;
    if (opt?.udpPayloadSize) limit = Math.max(CLASSIC_UDP_SIZE, Math.min(opt.udpPayloadSize, EDNS_UDP_SIZE));
  } catch {
    // An unreadable query was answered with FORMERR, which always fits.
  }
  if (response.length <= limit) return response;
  const packet = dnsPacket.decode(response);
  return dnsPacket.encode({ ...packet, flags: (packet.flags ?? 0) | FLAG_TC, answers: [], authorities: [], additionals: [] });
}

/** The authoritative name server of the local service: UDP and TCP on one port (DNS_PORT). */
export async function startDnsServer(options: DnsServerOptions): Promise<DnsServer> {
  const zones = options.zones ?? zoneSource(options.db, nameServerSettings(options.nameservers, { forwardAddresses: options.forwardAddresses }));
  const cache = options.cache ?? answerCache(zones);
  // DNS_PORT=0: a port free for TCP may be taken for UDP (a name server's, a client's socket): then another is tried.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await listen(options, zones, cache);
    } catch (error) {
      if (options.port !== 0 || attempt >= 5 || (error as { code?: string }).code !== 'EADDRINUSE') throw error;
    }
  }
}

async function listen(options: DnsServerOptions, zones: ZoneSource, cache: AnswerCache): Promise<DnsServer> {
  const open = new Set<Socket>();
  const tcp = createServer((socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    serveTcp(socket, zones, mayTransfer(socket.remoteAddress, options.axfrAllow), options.secondaries, countTcp, { address: socket.remoteAddress, keyed: options.keyed });
  });
  const port = await new Promise<number>((ready, fail) => {
    tcp.once('error', fail);
    tcp.listen(options.port, options.host, () => ready((tcp.address() as { port: number }).port));
  });
  const counter = options.counter ?? noCounting;
  const countTcp = (tally: Tally) => counter.count(tally, 'tcp');
  const rrlPerSecond = options.rrlPerSecond ?? 0;
  // The threads when this Node can share the socket with them, else the main thread; either failing closes TCP too.
  const openUdp = async () =>
    (await startUdpThreads({
      host: options.host,
      port,
      threads: options.udpThreads ?? 0,
      rrlPerSecond,
      cache,
      answer: (query, address) => cachedAnswer(query, zones, cache, options.secondaries, { address, keyed: options.keyed }),
      count: (tally, n) => counter.count(tally, 'udp', n),
    })) ?? (await mainThreadUdp(options.host, port, zones, cache, rrlPerSecond, counter, options.secondaries, options.keyed));
  const udp = await openUdp().catch(async (error: unknown) => {
    await new Promise((done) => tcp.close(done));
    throw error;
  });
  return {
    port,
    zones,
    cache,
    close: async () => {
      await udp.close();
      await new Promise<void>((done) => {
        tcp.close(() => done());
        for (const socket of open) socket.destroy();
      });
    },
  };
}

/** UDP answered on the main thread (node:dgram): with DNS_UDP_THREADS=0, or where this Node cannot share the socket with threads. */
async function mainThreadUdp(host: string, port: number, zones: ZoneSource, cache: AnswerCache, perSecond: number, counter: QueryCounter, secondaries?: SecondaryServing, keyed?: KeyedServing) {
  const udp = createSocket(isIP(host) === 6 ? 'udp6' : 'udp4');
  const rrl = responseRateLimiter(perSecond);
  const send = (answer: Buffer, remote: RemoteInfo, query: Buffer) => {
    const verdict = rrl.check(remote.address, query, answer);
    const out = verdict === 'send' ? answer : verdict === 'truncate' ? truncatedAnswer(answer) : null;
    if (out) udp.send(out, remote.port, remote.address);
  };
  udp.on('message', (message: Buffer, remote: RemoteInfo) => {
    const kept = zones.subscribed ? cache.lookup(message) : undefined;
    if (kept) {
      if (kept.meta) counter.count(kept.meta, 'udp');
      return void send(withId(kept.udp, message), remote, message);
    }
    void cachedAnswer(message, zones, cache, secondaries, { address: remote.address, keyed }).then((answered) => {
      if (!answered) return;
      if (answered.entry.meta) counter.count(answered.entry.meta, 'udp');
      send(withId(answered.entry.udp, message), remote, message);
    });
  });
  await new Promise<void>((ready, fail) => {
    udp.once('error', fail);
    udp.bind(port, host, () => ready());
  }).catch((error: unknown) => {
    // A socket that could not bind is still open: close it, or it outlives the failed start.
    udp.close();
    throw error;
  });
  return { close: () => new Promise<void>((done) => udp.close(() => done())) };
}

/** TCP (RFC 7766): each message is preceded by its length in two bytes; several queries may share a connection. */
function serveTcp(socket: Socket, zones: ZoneSource, transferAllowed: boolean, secondaries: SecondaryServing | undefined, count: (tally: Tally) => void, peer: Peer) {
  let buffered = Buffer.alloc(0);
  let queue = Promise.resolve();
  socket.setTimeout(10_000, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 2) {
      const length = buffered.readUInt16BE(0);
      if (buffered.length < 2 + length) break;
      const message = buffered.subarray(2, 2 + length);
      buffered = buffered.subarray(2 + length);
      queue = queue.then(async () => {
        for (const response of await answerWire(Buffer.from(message), zones, transferAllowed, secondaries, count, peer)) {
          const framed = Buffer.alloc(2 + response.length);
          framed.writeUInt16BE(response.length, 0);
          response.copy(framed, 2);
          if (!socket.destroyed) socket.write(framed);
        }
      });
    }
  });
}
