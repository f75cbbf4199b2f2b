/**
 * EDNS (RFC 6891) as a query carries it and as an answer returns it: one OPT record, in the additional section, of
 * version 0; its unknown options and flags ignored and never echoed; DO (RFC 3225) echoed; a COOKIE option (RFC
 * 7873) answered with a server cookie (cookies.cjs). Anything else about the OPT is a malformed query: FORMERR.
 */
import { createRequire } from 'node:module';
import * as dnsPacket from 'dns-packet';
import type { Answer, Packet } from 'dns-packet';

/** What this server offers in EDNS; 1232 avoids IP fragmentation (DNS flag day 2020). */
export const EDNS_UDP_SIZE = 1232;
/** The extended RCODE for an EDNS version this server does not speak (RFC 6891 §6.1.3). */
export const BADVERS = 16;

/** The EDNS options this server reads (RFC 7871, RFC 7314, RFC 7873). */
const OPTION = { SUBNET: 8, EXPIRE: 9, COOKIE: 10 } as const;

export interface CookieSecrets {
  keyFor(period: number): Uint8Array;
}

/** The cookie helpers the UDP threads share (plain JavaScript). */
export const cookies = createRequire(import.meta.url)('./cookies.cjs') as {
  OPTION_SIZE: number;
  NONE: number;
  MALFORMED: number;
  cookieSecrets(master: Buffer): CookieSecrets;
  findCookie(m: Buffer, at: number, rdata: number, n?: number): number;
  answerCookie(secrets: CookieSecrets, m: Buffer, option: number, ip: Buffer, now: number, out: Buffer, at: number): boolean;
  appendCookie(out: Buffer, length: number, cookie: Buffer, cookieAt: number): number;
  optOf(q: Buffer, n: number): number;
  withoutCookie(q: Buffer, n: number, opt: number, option: number, out: Buffer): number;
  addressBytes(address: string): Buffer;
};

/** Who asked, for the cookie an answer carries: the client's address and the service's cookie secrets. */
export interface CookiePeer {
  address: string;
  secrets: CookieSecrets | null;
}

export type Edns =
  | { kind: 'none' }
  /** Two OPT records, one outside the additional section, one not owned by the root, a malformed cookie. */
  | { kind: 'malformed'; opt: boolean }
  | {
      kind: 'ok';
      version: number;
      dnssecOk: boolean;
      cookie: Buffer | null;
      /** EDNS Client Subnet (RFC 7871): echoed with scope 0 (no answer here depends on the client's network). */
      subnet: Buffer | null;
      /** EXPIRE (RFC 7314) asked: answered with the zone's SOA expire where the answer is the zone's. */
      expire: boolean;
    };

type Opt = { type: 'OPT'; name: string; ednsVersion?: number; flags?: number; options?: Array<{ code: number; data?: Buffer }> };

/** The query's EDNS, read from its decoded form. */
export function readEdns(query: Packet): Edns {
  const isOpt = (r: { type?: string }) => r.type === 'OPT';
  if ((query.answers ?? []).some(isOpt) || (query.authorities ?? []).some(isOpt)) return { kind: 'malformed', opt: false };
  const opts = (query.additionals ?? []).filter(isOpt) as unknown as Opt[];
  if (opts.length === 0) return { kind: 'none' };
  const [opt] = opts;
  if (opts.length > 1 || opt.name !== '.') return { kind: 'malformed', opt: false };
  // Only the first COOKIE option counts (RFC 7873 §5.2); a client cookie alone is 8 bytes, with a server's 16 to 40.
  const cookie = (opt.options ?? []).find((o) => o.code === OPTION.COOKIE)?.data ?? null;
  if (cookie && cookie.length !== 8 && (cookie.length < 16 || cookie.length > 40)) return { kind: 'malformed', opt: true };
  const subnet = (opt.options ?? []).find((o) => o.code === OPTION.SUBNET)?.data ?? null;
  const expire = (opt.options ?? []).some((o) => o.code === OPTION.EXPIRE);
  return { kind: 'ok', version: opt.ednsVersion ?? 0, dnssecOk: ((opt.flags ?? 0) & dnsPacket.DNSSEC_OK) !== 0, cookie, subnet: subnet && subnet.length >= 4 ? subnet : null, expire };
}

/**
 * The OPT record of an answer: version 0, DO echoed, the client subnet echoed with scope 0, the zone's expire when
 * asked and known (`expire`), the server cookie when the query had a client cookie (always last: cookies.cjs
 * appendCookie adds it to a kept answer's OPT the same way). No other option is echoed.
 */
export function answerOpt(edns: Edns, peer: CookiePeer | undefined, extendedRcode = 0, expire: number | null = null): Answer {
  const dnssecOk = edns.kind === 'ok' && edns.dnssecOk;
  const options: Array<{ code: number; data: Buffer }> = [];
  if (edns.kind === 'ok' && edns.subnet) options.push({ code: OPTION.SUBNET, data: Buffer.concat([edns.subnet.subarray(0, 3), Buffer.from([0]), edns.subnet.subarray(4)]) });
  if (edns.kind === 'ok' && edns.expire && expire !== null) options.push({ code: OPTION.EXPIRE, data: Buffer.from([expire >>> 24, (expire >>> 16) & 255, (expire >>> 8) & 255, expire & 255]) });
  if (edns.kind === 'ok' && edns.cookie && peer?.secrets) options.push({ code: OPTION.COOKIE, data: serverCookie(edns.cookie, peer.address, peer.secrets) });
  return { type: 'OPT', name: '.', udpPayloadSize: EDNS_UDP_SIZE, extendedRcode, ednsVersion: 0, flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0, options } as never;
}

/** The 24 bytes answering a cookie option's data (client cookie, maybe the server's): see cookies.cjs answerCookie. */
function serverCookie(data: Buffer, address: string, secrets: CookieSecrets): Buffer {
  const option = Buffer.alloc(4 + data.length);
  option.writeUInt16BE(10, 0);
  option.writeUInt16BE(data.length, 2);
  data.copy(option, 4);
  const out = Buffer.alloc(24);
  cookies.answerCookie(secrets, option, 0, cookies.addressBytes(address), nowSeconds(), out, 0);
  return out;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * A query in the packet cache's shape (one question, its OPT the only additional record) with a COOKIE option: the
 * option's offset and the OPT's, or null (no cookie, another shape) or 'malformed'.
 */
export function cookieIn(query: Buffer): { opt: number; option: number } | 'malformed' | null {
  const opt = cookies.optOf(query, query.length);
  if (opt < 0) return null;
  const option = cookies.findCookie(query, opt + 11, query.readUInt16BE(opt + 9));
  if (option === cookies.MALFORMED) return 'malformed';
  return option === cookies.NONE ? null : { opt, option };
}
