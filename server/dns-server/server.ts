import { plainName, toRelative } from '#core/dns/names.ts';
import type { AnswerCode } from '#core/wire/analytics.ts';
import { createSocket, type RemoteInfo } from 'node:dgram';
import { createServer, type Socket } from 'node:net';
import { isIP } from 'node:net';
import * as dnsPacket from 'dns-packet';
import type { Answer, Packet } from 'dns-packet';
import type { Queryable } from '../db/database.ts';
import { inAny, parseCidr } from '../net/addresses.ts';
import { packetCache, withId, type CachedAnswer, type PacketCache } from './packet-cache.ts';
import { readName } from './wire-names.ts';
import { noCounting, type QueryCounter, type Tally } from './query-counts.ts';
import { answerOpt, BADVERS, cookieIn, cookies, EDNS_UDP_SIZE, nowSeconds, readEdns, type CookieSecrets, type CookiePeer } from './edns.ts';
import { handlerFor } from './opcodes.ts';
import { RCODE } from './resolve.ts';
import { responseRateLimiter, truncatedAnswer } from './rrl.ts';
import type { SecondaryServing } from './secondaries.ts';
import { signAnswer, tsigFailure } from './tsig.ts';
import { answerUpdate, checkTsig, isUpdate, type KeyedPeer, type KeyedServing } from './keyed.ts';
import { startUdpThreads, type MissStats } from './udp-threads.ts';
import { nameServerSettings, type SoaTimers, type ZoneSnapshot } from './zone-snapshot.ts';
import { compileThreadZone } from './thread-zone.ts';
import { cookieMaster } from './cookie-secret.ts';
import { ZoneBeingSigned, zoneSource, type ZoneSource } from './zone-source.ts';

export { nameServerSettings };

const CLASSIC_UDP_SIZE = 512;

/** Who sent a message, as each part reads it: the cookies (edns.ts) and the keyed doors (keyed.ts). */
type Peer = CookiePeer & KeyedPeer;
const FLAG_TC = 0x200;
const FLAG_RD = 0x100;
const FLAG_AA = 0x400;
/** The Z bit: set in a cache key whose query had a cookie (cookies.cjs withoutCookie), so its answer leaves room for one. */
const FLAG_Z = 0x40;
const OPCODE_MASK = 0x7800;

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
  /** The SOA timers of zones made from `db`. */
  soa?: SoaTimers;
  /** DNS cookies (RFC 7873) under the master secret kept in `db` (cookie-secret.ts); on unless false. */
  cookies?: boolean;
}

/** Encoded answers, shared by UDP and DoH, with what each is counted as (null: no zone). */
export type AnswerCache = PacketCache<Tally | null>;

/**
 * The packet cache for `zones`: a zone's answers dropped whenever it changes, every answer when the subscription is
 * lost; the answers of `everyChange` (the catalog zone) with any change. `bytes`: its size (DNS_CACHE_MB's half).
 */
export function answerCache(zones: ZoneSource, everyChange: readonly string[] = [], bytes?: number): AnswerCache {
  const cache = packetCache<Tally | null>(everyChange, bytes);
  zones.onChange((zone) => cache.drop(zone));
  return cache;
}

/**
 * The query as the packet cache keys it: itself, or without its cookie option when it has one (cookies.cjs
 * withoutCookie; the cookie is answered per client on the way out, see `answerFor`); null for a malformed cookie,
 * answered FORMERR and never kept. Without cookie secrets a cookie is ignored, part of the key like any option.
 */
function cacheKeyOf(query: Buffer, secrets: CookieSecrets | null): Buffer | null {
  if (!secrets) return query;
  const found = cookieIn(query);
  if (found === 'malformed') return null;
  if (!found) return query;
  const key = Buffer.alloc(query.length);
  return key.subarray(0, cookies.withoutCookie(query, query.length, found.opt, found.option, key));
}

/**
 * Answers a query through the packet cache: the kept entry when there is one (its answers carry the ID of the query
 * that filled it: see `answerFor`), else resolved and kept. Nothing is kept while the zones are not subscribed to
 * changes (a change could not drop it). `key` is what the cache keyed it by (null: not kept). Null when there is
 * nothing to send.
 */
export async function cachedAnswer(
  query: Buffer,
  zones: ZoneSource,
  cache: AnswerCache,
  secondaries?: SecondaryServing,
  peer?: Peer,
): Promise<{ entry: CachedAnswer<Tally | null>; hit: boolean; key: Buffer | null } | null> {
  const key = cacheKeyOf(query, peer?.secrets ?? null);
  const kept = key && zones.subscribed ? cache.lookup(key) : undefined;
  if (kept) return { entry: kept, hit: true, key };
  const token = cache.begin();
  const compiled = key && zones.subscribed ? await fromCompiledForm(key, zones, cache, token) : undefined;
  if (compiled) return { entry: compiled, hit: false, key };
  let tally: Tally | null = null;
  const asked = key ?? query;
  // A key without the cookie: its cookie goes on per client (answerFor). Otherwise answerWire answers the cookie
  // itself (a query the cache does not keep: TSIG, several additional records), or there is none.
  const [full] = await answerWire(asked, zones, false, secondaries, (t) => void (tally = t), key !== null && key !== query ? undefined : peer);
  if (!full) return null;
  const entry: CachedAnswer<Tally | null> = { full, udp: fitUdp(full, asked), zone: (tally as Tally | null)?.zone ?? null, meta: tally };
  if (key && zones.subscribed) {
    if (entry.zone !== null) keepThreadZone(entry.zone, zones, cache, token);
    cache.set(key, entry, token);
  }
  return { entry, hit: false, key };
}

/** A question's name as a compiled form can answer it: plain ASCII letters, digits, '-' and '_' (thread-zone.ts). */
const PLAIN_QNAME = /^[a-z0-9_.-]*$/;

/**
 * A cold zone's first question answered from the form compiled for the UDP threads that the pipeline keeps in the
 * database (compiled-form.ts): read with the zone's name (zone-rows.ts compiledRows), put into the shared table (the
 * threads answer the zone's next questions from it) and answered from there as a thread would, without building the zone's snapshot. Undefined
 * when the zone has no such form or the question is not one it answers (the query then takes answerWire).
 */
async function fromCompiledForm(key: Buffer, zones: ZoneSource, cache: AnswerCache, token: number): Promise<CachedAnswer<Tally | null> | undefined> {
  let qname: string;
  try {
    qname = readName(key, 12).name;
  } catch {
    return undefined;
  }
  if (!PLAIN_QNAME.test(qname)) return undefined;
  const compiled = await zones.compiled(qname);
  if (!compiled) return undefined;
  cache.keepZone(compiled.zone, () => compiled.form, token);
  return cache.lookup(key);
}

/** Snapshots the UDP threads could not be given whole (thread-zone.ts), so a zone's next miss does not try again. */
const notCompiled = new WeakSet<ZoneSnapshot>();

/**
 * The zone that answered a miss, compiled for the UDP threads when it is not yet: they answer its next questions
 * themselves. At its first miss: a zone compiled only at its second (a doorkeeper, as TinyLFU admits entries) made
 * a first pass over 100,000 zones faster (2,481 against 1,604 a second) but left every zone's second question,
 * spread over the next minutes, to the main thread (4,233 a second over random zones against 33,853).
 */
function keepThreadZone(zone: string, zones: ZoneSource, cache: AnswerCache, token: number): void {
  cache.keepZone(
    zone,
    () => {
      const snapshot = zones.whole(zone);
      if (!snapshot || notCompiled.has(snapshot)) return null;
      const form = compileThreadZone(snapshot);
      if (!form) notCompiled.add(snapshot);
      return form;
    },
    token,
  );
}

/**
 * The bytes to send `query` from a cache entry ('udp' or 'full'): the query's ID, and the server cookie answering
 * its client cookie (cookies.cjs). `proven`: the query carried a valid server cookie, so it came from the address it
 * names (RRL lets it through).
 */
export function answerFor(entry: CachedAnswer<Tally | null>, query: Buffer, peer: Peer | undefined, which: 'udp' | 'full' = 'udp'): { bytes: Buffer; proven: boolean } {
  const base = entry[which];
  const found = peer?.secrets ? cookieIn(query) : null;
  if (!found || found === 'malformed' || !peer?.secrets) return { bytes: withId(base, query), proven: false };
  const out = Buffer.alloc(base.length + cookies.OPTION_SIZE);
  base.copy(out);
  out[0] = query[0];
  out[1] = query[1];
  const cookie = Buffer.alloc(24);
  const proven = cookies.answerCookie(peer.secrets, query, found.option, cookies.addressBytes(peer.address), nowSeconds(), cookie, 0);
  return { bytes: out.subarray(0, cookies.appendCookie(out, base.length, cookie, 0)), proven };
}

export interface DnsServer {
  port: number;
  zones: ZoneSource;
  /** The packet cache (shared with DoH when the service passed it). */
  cache: AnswerCache;
  /** The UDP threads' misses (udp-threads.ts back-pressure); null when UDP is answered on the main thread alone. */
  misses(): MissStats | null;
  close(): Promise<void>;
}

/** Whether a peer may transfer zones: its address (IPv4-mapped or not) in one of the allow-list's addresses and CIDRs. */
export function mayTransfer(address: string | undefined, allow: readonly string[]): boolean {
  return inAny(address, allow.flatMap((entry) => parseCidr(entry) ?? []));
}

/**
 * Answers one wire-format query: the response messages, or a FORMERR when the message cannot be read but its id
 * can (or its EDNS is malformed: edns.ts), or nothing at all for bytes that are not DNS. `peer` (who asked, and the
 * cookie secrets) puts a server cookie in the answer to a query with a client cookie.
 */
export async function answerWire(
  bytes: Buffer,
  zones: ZoneSource,
  transferAllowed: boolean,
  secondaries?: SecondaryServing,
  onTally?: (tally: Tally) => void,
  peer?: Peer,
): Promise<Buffer[]> {
  // UPDATE (RFC 2136) before dns-packet reads it: its records may have no data, which dns-packet cannot read.
  if (isUpdate(bytes)) return answerUpdate(bytes, zones, secondaries?.keys ?? [], peer ?? {});
  let query: Packet;
  let zone: string | null = null;
  const onZone = (z: string) => void (zone = z);
  try {
    query = dnsPacket.decode(bytes);
  } catch {
    return bytes.length < 12 ? [] : [formatError(bytes.readUInt16BE(0), bytes.readUInt16BE(2))];
  }
  const edns = readEdns(query);
  if (edns.kind === 'malformed') return [formatError(query.id ?? 0, query.flags ?? 0, edns.opt ? answerOpt(edns, undefined) : null)];
  const dnssecOk = edns.kind === 'ok' && edns.dnssecOk;
  let responses: Buffer[];
  try {
    // TSIG checked first: a transfer key (required for transfers when keys are set) or an API key's TSIG form.
    const signed = secondaries || peer?.keyed ? await checkTsig(bytes, secondaries?.keys ?? [], peer?.keyed) : ({ kind: 'none' } as const);
    if (signed.kind === 'error') return [tsigFailure(dnsPacket.encode({ id: query.id ?? 0, type: 'response', flags: 0, questions: query.questions ?? [] }), signed)];
    if (signed.kind === 'ok') query.additionals = (query.additionals ?? []).filter((a) => (a.type as string) !== 'TSIG');
    // A transfer signed with an API key's form: its scope and addresses decide, whatever DNS_AXFR_ALLOW says.
    const keyedTransfer = signed.kind === 'ok' && signed.key.apiKeyId && peer?.keyed && isTransfer(query) ? await peer.keyed.mayTransfer(signed.key, plainName(query.questions![0].name), peer.address) : undefined;
    const mayTransferHere = keyedTransfer ?? (transferAllowed && (!secondaries || secondaries.keys.length === 0 || (signed.kind === 'ok' && !signed.key.apiKeyId)));
    // An EDNS version other than 0: BADVERS (its upper bits in the OPT), no answer (RFC 6891 §6.1.3).
    const badVersion = edns.kind === 'ok' && edns.version !== 0;
    const opcode = ((query.flags ?? 0) & OPCODE_MASK) >> 11;
    const packets = badVersion
      ? [{ id: query.id ?? 0, type: 'response' as const, flags: (query.flags ?? 0) & FLAG_RD, questions: query.questions ?? [] }]
      : await handlerFor(opcode)({ query, bytes, zones, mayTransfer: mayTransferHere, dnssecOk, tsig: signed, secondaries, onZone });
    if (zone !== null && onTally) onTally(tallyOf(query, zone, packets[0], dnssecOk));
    const expire = edns.kind === 'ok' && edns.expire ? await expireOf(zones, zone, packets[0]) : null;
    for (const r of packets) {
      r.flags = ((r.flags ?? 0) & ~OPCODE_MASK) | ((query.flags ?? 0) & OPCODE_MASK);
      if (edns.kind === 'ok') r.additionals = [...(r.additionals ?? []), answerOpt(edns, peer, badVersion ? BADVERS >> 4 : 0, expire)];
    }
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
  if (responses.length === 0) return [formatError(query.id ?? 0, query.flags ?? 0)];
  return namesOf(query).every(echoesAsSent) || responses.every(readable) ? responses : [formatError(query.id ?? 0, query.flags ?? 0)];
}

/** The SOA expire of the zone that answered authoritatively (EDNS EXPIRE, RFC 7314), or null. */
async function expireOf(zones: ZoneSource, zone: string | null, response: Packet | undefined): Promise<number | null> {
  if (zone === null || ((response?.flags ?? 0) & FLAG_AA) === 0) return null;
  const soa = (await zones.find(zone))?.nodes.get('@')?.get('SOA')?.rdatas[0];
  return soa ? Number(soa.split(' ')[5]) : null;
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

/** FORMERR, the opcode echoed; with an OPT when the query's could be read (a malformed cookie). */
function formatError(id: number, queryFlags: number, opt: Answer | null = null): Buffer {
  return dnsPacket.encode({ id, type: 'response', flags: (queryFlags & OPCODE_MASK) | RCODE.FORMERR, questions: [], additionals: opt ? [opt] : [] });
}

function readable(message: Buffer): boolean {
  try {
    dnsPacket.decode(message);
    return true;
  } catch {
    return false;
  }
}

/**
 * Over UDP, an answer larger than the client can take is sent truncated (TC, its OPT kept) so it asks again over
 * TCP; a query that had a cookie (the Z bit of its cache key) leaves room for the cookie appended on the way out.
 */
function fitUdp(response: Buffer, query: Buffer): Buffer {
  let limit = CLASSIC_UDP_SIZE;
  try {
    const opt = dnsPacket.decode(query).additionals?.find((a) => a.type === 'OPT') as { udpPayloadSize?: number } | undefined;
    if (opt?.udpPayloadSize) limit = Math.max(CLASSIC_UDP_SIZE, Math.min(opt.udpPayloadSize, EDNS_UDP_SIZE));
  } catch {
    // An unreadable query was answered with FORMERR, which always fits.
  }
  if (query.length > 3 && (query[3] & FLAG_Z) !== 0) limit -= cookies.OPTION_SIZE;
  if (response.length <= limit) return response;
  const packet = dnsPacket.decode(response);
  const opt = (packet.additionals ?? []).filter((a) => a.type === 'OPT');
  return dnsPacket.encode({ ...packet, flags: (packet.flags ?? 0) | FLAG_TC, answers: [], authorities: [], additionals: opt });
}

/** The authoritative name server of the local service: UDP and TCP on one port (DNS_PORT). */
export async function startDnsServer(options: DnsServerOptions): Promise<DnsServer> {
  const zones = options.zones ?? zoneSource(options.db, nameServerSettings(options.nameservers, { forwardAddresses: options.forwardAddresses }, options.soa));
  const cache = options.cache ?? answerCache(zones);
  const master = options.cookies === false ? null : await cookieMaster(options.db);
  // DNS_PORT=0: a port free for TCP may be taken for UDP (a name server's, a client's socket): then another is tried.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await listen(options, zones, cache, master);
    } catch (error) {
      if (options.port !== 0 || attempt >= 5 || (error as { code?: string }).code !== 'EADDRINUSE') throw error;
    }
  }
}

async function listen(options: DnsServerOptions, zones: ZoneSource, cache: AnswerCache, master: Buffer | null): Promise<DnsServer> {
  const secrets = master ? cookies.cookieSecrets(master) : null;
  const open = new Set<Socket>();
  const tcp = createServer((socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    const peer = { address: socket.remoteAddress ?? '', secrets, keyed: options.keyed };
    serveTcp(socket, zones, mayTransfer(socket.remoteAddress, options.axfrAllow), options.secondaries, countTcp, peer);
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
      cookieMaster: master,
      answer: (query, address) => cachedAnswer(query, zones, cache, options.secondaries, { address, secrets, keyed: options.keyed }),
      send: (entry, query, address) => answerFor(entry, query, { address, secrets }),
      count: (tally, n) => counter.count(tally, 'udp', n),
    })) ?? (await mainThreadUdp({ host: options.host, port, zones, cache, perSecond: rrlPerSecond, counter, secondaries: options.secondaries, secrets, keyed: options.keyed }));
  const udp = await openUdp().catch(async (error: unknown) => {
    await new Promise((done) => tcp.close(done));
    throw error;
  });
  return {
    port,
    zones,
    cache,
    misses: () => udp.misses(),
    close: async () => {
      await udp.close();
      await new Promise<void>((done) => {
        tcp.close(() => done());
        for (const socket of open) socket.destroy();
      });
    },
  };
}

interface MainThreadUdp {
  host: string;
  port: number;
  zones: ZoneSource;
  cache: AnswerCache;
  /** RRL's answers per second (0: off); a query with a valid server cookie is never limited. */
  perSecond: number;
  counter: QueryCounter;
  secondaries?: SecondaryServing;
  secrets: CookieSecrets | null;
  keyed?: KeyedServing;
}

/** UDP answered on the main thread (node:dgram): with DNS_UDP_THREADS=0, or where this Node cannot share the socket with threads. */
async function mainThreadUdp({ host, port, zones, cache, perSecond, counter, secondaries, secrets, keyed }: MainThreadUdp) {
  const udp = createSocket(isIP(host) === 6 ? 'udp6' : 'udp4');
  const rrl = responseRateLimiter(perSecond);
  const send = (entry: CachedAnswer<Tally | null>, remote: RemoteInfo, query: Buffer) => {
    if (entry.meta) counter.count(entry.meta, 'udp');
    const { bytes, proven } = answerFor(entry, query, { address: remote.address, secrets });
    const verdict = proven ? 'send' : rrl.check(remote.address, query, bytes);
    const out = verdict === 'send' ? bytes : verdict === 'truncate' ? truncatedAnswer(bytes) : null;
    if (out) udp.send(out, remote.port, remote.address);
  };
  udp.on('message', (message: Buffer, remote: RemoteInfo) => {
    const key = zones.subscribed ? cacheKeyOf(message, secrets) : null;
    const kept = key ? cache.lookup(key) : undefined;
    if (kept) return void send(kept, remote, message);
    void cachedAnswer(message, zones, cache, secondaries, { address: remote.address, secrets, keyed }).then((answered) => {
      if (answered) send(answered.entry, remote, message);
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
  return { close: () => new Promise<void>((done) => udp.close(() => done())), misses: () => null };
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
