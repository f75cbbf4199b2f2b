import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import * as dnsPacket from 'dns-packet';
import { TYPE_NUMBERS } from '#core/dns/wire-rdata.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { decodeReply, type Reply } from './reply.ts';

/*
 * The service's one DNS client, on dns-packet: a question over UDP, asked again over TCP when the answer comes back
 * truncated (RFC 7766), and a zone transfer's stream of messages over TCP (RFC 5936). Every wait is bounded. It asks
 * only the server it is handed: which servers may be asked (DNS_RESOLVER, a scan's checked name server) is the
 * caller's rule.
 */

export interface DnsServer {
  /** An IP address (IPv6 without brackets). */
  host: string;
  port: number;
}

/** Why no usable answer came: none in time, a socket's error, or bytes that are not an answer to the question. */
export interface Failed {
  ok: false;
  failure: 'timeout' | 'network' | 'malformed';
  reason: string;
}

export type Asked = ({ ok: true; reply: Reply } | Failed) & {
  /** Messages sent: 1, and one more for each time the question was asked again (over TCP, or without EDNS). */
  sent: number;
};

export interface QueryOptions {
  /** The wait for a UDP answer; a TCP exchange is given twice as long (a connection first). */
  timeoutMs: number;
  /** Whether a truncated UDP answer is asked again over TCP (default yes); if not, the truncated answer is the answer. */
  tcpOnTruncation?: boolean;
  /**
   * Whether the query offers EDNS (RFC 6891) with a 1232-byte UDP payload, as a resolver is asked (fewer answers
   * truncated); a server that answers it FORMERR is asked once more without. Default no: a plain RFC 1035 query.
   */
  edns?: boolean;
}

/** The UDP payload offered with EDNS: the size that needs no IP fragmentation (DNS Flag Day 2020). */
const EDNS_UDP_PAYLOAD = 1232;
const FORMERR = 1;

/** A DNS_RESOLVER entry, `192.0.2.53:53` or `[2001:db8::53]:53` (checked by server/config.ts). */
export function parseServer(entry: string): DnsServer {
  const at = entry.lastIndexOf(':');
  return { host: entry.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(entry.slice(at + 1)) };
}

const typeName = (type: RecordType | 'AXFR') => (type === 'AXFR' ? 'AXFR' : `UNKNOWN_${TYPE_NUMBERS[type]}`);
const seconds = (ms: number) => `${ms / 1000} s`;
const failed = (failure: Failed['failure'], reason: string): Failed => ({ ok: false, failure, reason });

interface Question {
  id: number;
  message: Buffer;
  /** As dns-packet decodes it, to compare with what an answer repeats. */
  asked: { name: string; type: string };
}

function question(name: string, type: RecordType | 'AXFR', edns = false): Question {
  const id = randomInt(0, 65536);
  const message = dnsPacket.encode({
    type: 'query',
    id,
    flags: type === 'AXFR' ? 0 : dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type: typeName(type) as 'A', class: 'IN' }],
    additionals: edns ? [{ type: 'OPT', name: '.', udpPayloadSize: EDNS_UDP_PAYLOAD } as dnsPacket.Answer] : [],
  });
  return { id, message, asked: decodeReply(message).questions[0] };
}

/** The reply to `asked`, or why it is not one: an answer carries the query's id and, when it repeats it, its question. */
function readReply(bytes: Buffer, asked: Question): { ok: true; reply: Reply } | Failed {
  let reply: Reply;
  try {
    reply = decodeReply(bytes);
  } catch (error) {
    return failed('malformed', `a malformed answer (${(error as Error).message})`);
  }
  const echoed = reply.questions[0];
  if (reply.id !== asked.id || (echoed && (echoed.name !== asked.asked.name || echoed.type !== asked.asked.type))) return failed('malformed', 'an answer to another query');
  return { ok: true, reply };
}

/** One question to one server: UDP, then TCP when the answer is truncated (and again without EDNS if it is not known). */
export async function query(server: DnsServer, name: string, type: RecordType, options: QueryOptions): Promise<Asked> {
  const first = await exchange(server, question(name, type, options.edns), options);
  if (!options.edns || !first.ok || first.reply.rcode !== FORMERR) return first;
  const again = await exchange(server, question(name, type), options);
  return { ...again, sent: first.sent + again.sent };
}

async function exchange(server: DnsServer, asked: Question, options: QueryOptions): Promise<Asked> {
  const udp = await udpExchange(server, asked, options.timeoutMs);
  if (!Buffer.isBuffer(udp)) return { ...udp, sent: 1 };
  const first = readReply(udp, asked);
  if (!first.ok || !first.reply.truncated || options.tcpOnTruncation === false) return { ...first, sent: 1 };
  const tcp = await tcpStream<Buffer>(server, asked.message, { idleMs: options.timeoutMs * 2, totalMs: options.timeoutMs * 2 }, (reply) => reply);
  return { ...(Buffer.isBuffer(tcp) ? readReply(tcp, asked) : tcp), sent: 2 };
}

function udpExchange(server: DnsServer, asked: Question, timeoutMs: number): Promise<Buffer | Failed> {
  return new Promise((resolve) => {
    // Connected: only datagrams from the server asked are read, and an ICMP "port unreachable" ends the wait at once.
    const socket = createSocket(server.host.includes(':') ? 'udp6' : 'udp4');
    let done = false;
    const finish = (value: Buffer | Failed) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      resolve(value);
    };
    const timer = setTimeout(() => finish(failed('timeout', `no answer within ${seconds(timeoutMs)}`)), timeoutMs);
    socket.on('error', (error: NodeJS.ErrnoException) => finish(failed('network', `UDP: ${error.code ?? error.message}`)));
    // Another id is someone else's datagram (or a late answer): the wait goes on.
    socket.on('message', (reply: Buffer) => {
      if (reply.length >= 2 && reply.readUInt16BE(0) === asked.id) finish(reply);
    });
    socket.connect(server.port, server.host, () => socket.send(asked.message));
  });
}

/**
 * Sends one message over TCP and hands each framed message that comes back to `read` until it answers something
 * (not undefined): that is the result, or the failure that ended the stream first.
 */
function tcpStream<T>(server: DnsServer, message: Buffer, limits: { idleMs: number; totalMs: number }, read: (reply: Buffer) => T | undefined): Promise<T | Failed> {
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0);
    let messages = 0;
    let done = false;
    const socket = connect({ host: server.host, port: server.port });
    const finish = (value: T | Failed) => {
      if (done) return;
      done = true;
      clearTimeout(total);
      socket.destroy();
      resolve(value);
    };
    const total = setTimeout(() => finish(failed('timeout', `no complete answer within ${seconds(limits.totalMs)}`)), limits.totalMs);
    socket.setTimeout(limits.idleMs, () => finish(failed('timeout', `no answer within ${seconds(limits.idleMs)}`)));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(failed('network', `TCP: ${error.code ?? error.message}`)));
    socket.on('close', () => finish(failed('network', messages === 0 ? 'the connection was closed' : 'the connection closed before the answer ended')));
    socket.on('connect', () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(message.length);
      socket.write(Buffer.concat([length, message]));
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (!done && buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0)) {
        const reply = buffer.subarray(2, 2 + buffer.readUInt16BE(0));
        buffer = buffer.subarray(2 + reply.length);
        messages += 1;
        const result = read(reply);
        if (result !== undefined) finish(result);
      }
    });
  });
}

/**
 * A zone transfer (AXFR over TCP): each message of the stream, decoded and checked to answer the query, is handed to
 * `read` until it answers a result (not undefined). A malformed message or one of another query ends the transfer.
 */
export function transfer<T>(server: DnsServer, zone: string, limits: { idleMs: number; totalMs: number }, read: (reply: Reply) => T | undefined): Promise<T | Failed> {
  const asked = question(zone, 'AXFR');
  return tcpStream<T | Failed>(server, asked.message, limits, (bytes) => {
    const checked = readReply(bytes, asked);
    return checked.ok ? read(checked.reply) : checked;
  });
}
