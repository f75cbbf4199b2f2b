/**
 * Record data between its stored (presentation) form and DNS wire bytes (RFC 1035 §3.3 and each type's RFC).
 * The zone-file reader uses the wire-to-text half for RFC 3597 generic data (`TYPE65 \# 3 000100`); the local
 * name server uses the text-to-wire half for answers. Names are written uncompressed (RFC 3597 §4 forbids
 * compression in the types defined after RFC 1035, and answers stay small).
 */
import type { RecordType } from '../wire/dns.ts';
import { canonicalIpv6, parseIpv4, parseIpv6 } from './ip.ts';
import { withoutTrailingDot } from './names.ts';
import { fromUtf8, quoteBytes, tokenize, tokenText, utf8 } from './presentation.ts';
import { fail, ok, type Result } from './types.ts';

export const TYPE_NUMBERS: Record<RecordType, number> = {
  A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, SRV: 33, NAPTR: 35, DS: 43, SSHFP: 44, TLSA: 52,
  SVCB: 64, HTTPS: 65, SPF: 99, CAA: 257,
  // No IANA number: PowerDNS's private-use one. The name server never answers an ALIAS as such (it flattens it).
  ALIAS: 65401,
};
const TYPE_BY_NUMBER = new Map<number, RecordType>(Object.entries(TYPE_NUMBERS).map(([type, n]) => [n, type as RecordType]));

export function typeByNumber(n: number): RecordType | undefined {
  return TYPE_BY_NUMBER.get(n);
}

const SVC_KEY_NAMES = ['mandatory', 'alpn', 'no-default-alpn', 'port', 'ipv4hint', 'ech', 'ipv6hint', 'dohpath', 'ohttp'];
const svcKeyName = (n: number) => SVC_KEY_NAMES[n] ?? `key${n}`;
const svcKeyNumber = (name: string) => (SVC_KEY_NAMES.includes(name) ? SVC_KEY_NAMES.indexOf(name) : Number(name.slice(3)));

class Writer {
  private bytes: number[] = [];
  u8(n: number) {
    this.bytes.push(n & 0xff);
  }
  u16(n: number) {
    this.bytes.push((n >> 8) & 0xff, n & 0xff);
  }
  u32(n: number) {
    this.u16(Math.floor(n / 65536));
    this.u16(n % 65536);
  }
  raw(data: ArrayLike<number>) {
    for (let i = 0; i < data.length; i += 1) this.bytes.push(data[i]);
  }
  string(data: Uint8Array) {
    this.u8(data.length);
    this.raw(data);
  }
  name(text: string) {
    if (text !== '.') for (const label of withoutTrailingDot(text).split('.')) this.label(label);
    this.u8(0);
  }
  /** A label's length and bytes: an ASCII label's characters as they are (no encoder: names are most of a zone's data), others as UTF-8. */
  private label(label: string) {
    const start = this.bytes.length;
    this.bytes.push(label.length);
    for (let i = 0; i < label.length; i += 1) {
      const c = label.charCodeAt(i);
      if (c > 0x7f) {
        this.bytes.length = start;
        this.string(utf8(label));
        return;
      }
      this.bytes.push(c);
    }
  }
  hex(text: string) {
    for (let i = 0; i < text.length; i += 2) this.u8(parseInt(text.slice(i, i + 2), 16));
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const tokensOf = (rdata: string) => {
  const t = tokenize(rdata);
  return t.ok ? t.tokens : [];
};

/** Stored record data to wire bytes. The input is trusted to be in the stored form (validateRdata's output). */
export function rdataToWire(type: RecordType, rdata: string): Uint8Array {
  const w = new Writer();
  // Split only where a type reads fields (an A record needs none); `tokens` for the types with quoted strings.
  const parts = type === 'A' || type === 'AAAA' ? [rdata] : rdata.trim().split(/\s+/);
  switch (type) {
    case 'A':
      w.raw(parseIpv4(rdata) ?? [0, 0, 0, 0]);
      break;
    case 'AAAA':
      for (const group of parseIpv6(rdata) ?? Array.from({ length: 8 }, () => 0)) w.u16(group);
      break;
    case 'CNAME':
    case 'NS':
    case 'PTR':
    case 'ALIAS':
      w.name(parts[0]);
      break;
    case 'MX':
      w.u16(Number(parts[0]));
      w.name(parts[1]);
      break;
    case 'TXT':
    case 'SPF':
      for (const token of tokensOf(rdata)) w.string(token.bytes);
      break;
    case 'SRV':
      parts.slice(0, 3).forEach((p) => w.u16(Number(p)));
      w.name(parts[3]);
      break;
    case 'SOA':
      w.name(parts[0]);
      w.name(parts[1]);
      parts.slice(2, 7).forEach((p) => w.u32(Number(p)));
      break;
    case 'DS':
      w.u16(Number(parts[0]));
      w.u8(Number(parts[1]));
      w.u8(Number(parts[2]));
      w.hex(parts.slice(3).join(''));
      break;
    case 'SSHFP':
      w.u8(Number(parts[0]));
      w.u8(Number(parts[1]));
      w.hex(parts.slice(2).join(''));
      break;
    case 'TLSA':
      parts.slice(0, 3).forEach((p) => w.u8(Number(p)));
      w.hex(parts.slice(3).join(''));
      break;
    case 'CAA': {
      const [flags, tag, ...value] = tokensOf(rdata);
      w.u8(Number(flags.raw));
      w.string(utf8(tag.raw));
      w.raw(utf8(value.map(tokenText).join(' ')));
      break;
    }
    case 'NAPTR': {
      const t = tokensOf(rdata);
      w.u16(Number(t[0].raw));
      w.u16(Number(t[1].raw));
      for (const field of t.slice(2, 5)) w.string(field.bytes);
      w.name(t[5].raw);
      break;
    }
    case 'SVCB':
    case 'HTTPS': {
      const [priority, target, ...params] = tokensOf(rdata);
      w.u16(Number(priority.raw));
      w.name(target.raw);
      for (const param of params) {
        const text = tokenText(param);
        const eq = text.indexOf('=');
        const key = eq < 0 ? text : text.slice(0, eq);
        const value = eq < 0 ? '' : text.slice(eq + 1);
        const data = svcParamToWire(key, value);
        w.u16(svcKeyNumber(key));
        w.u16(data.length);
        w.raw(data);
      }
      break;
    }
  }
  return w.done();
}

function svcParamToWire(key: string, value: string): Uint8Array {
  const w = new Writer();
  switch (key) {
    case 'mandatory':
      for (const k of value.split(',')) w.u16(svcKeyNumber(k));
      break;
    case 'alpn':
      for (const id of value.split(',')) w.string(utf8(id));
      break;
    case 'port':
      w.u16(Number(value));
      break;
    case 'ipv4hint':
      for (const ip of value.split(',')) w.raw(parseIpv4(ip) ?? [0, 0, 0, 0]);
      break;
    case 'ipv6hint':
      for (const ip of value.split(',')) for (const group of parseIpv6(ip) ?? Array.from({ length: 8 }, () => 0)) w.u16(group);
      break;
    case 'ech':
      w.raw(Uint8Array.from(atob(value), (c) => c.charCodeAt(0)));
      break;
    default:
      w.raw(utf8(value));
  }
  return w.done();
}

class Reader {
  offset = 0;
  constructor(private readonly bytes: Uint8Array) {}
  get left() {
    return this.bytes.length - this.offset;
  }
  need(n: number) {
    if (this.left < n) throw new RangeError(`the data ends early: ${n} more bytes expected at byte ${this.offset}`);
  }
  u8() {
    this.need(1);
    return this.bytes[this.offset++];
  }
  u16() {
    return this.u8() * 256 + this.u8();
  }
  u32() {
    return this.u16() * 65536 + this.u16();
  }
  take(n: number) {
    this.need(n);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }
  rest() {
    return this.take(this.left);
  }
  string() {
    return this.take(this.u8());
  }
  name(): string {
    const labels: string[] = [];
    for (let length = this.u8(); length > 0; length = this.u8()) {
      if (length >= 0xc0) throw new RangeError('a compressed name cannot appear in record data here');
      labels.push(labelText(this.take(length)));
    }
    return labels.length === 0 ? '.' : `${labels.join('.')}.`;
  }
}

/** A label as presentation text: letters, digits, '-', '_' and '*' as they are, anything else escaped. */
function labelText(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    const ch = String.fromCharCode(b);
    out += /[A-Za-z0-9_*-]/.test(ch) ? ch : `\\${String(b).padStart(3, '0')}`;
  }
  return out;
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();

/** Wire bytes to record data in presentation form (validateRdata then gives the stored form). */
export function rdataFromWire(type: RecordType, bytes: Uint8Array): Result<string> {
  const r = new Reader(bytes);
  try {
    const text = readRdata(type, r);
    if (r.left > 0) return fail(`The ${type} data has ${r.left} bytes more than its fields hold`);
    return ok(text);
  } catch (error) {
    return fail(`The ${type} data cannot be read: ${(error as Error).message}`);
  }
}

function readRdata(type: RecordType, r: Reader): string {
  switch (type) {
    case 'A':
      return Array.from(r.take(4)).join('.');
    case 'AAAA': {
      const groups = Array.from({ length: 8 }, () => r.u16().toString(16));
      return canonicalIpv6(groups.join(':')) ?? groups.join(':');
    }
    case 'CNAME':
    case 'NS':
    case 'PTR':
    case 'ALIAS':
      return r.name();
    case 'MX':
      return `${r.u16()} ${r.name()}`;
    case 'TXT':
    case 'SPF': {
      const strings: string[] = [];
      while (r.left > 0) strings.push(quoteBytes(r.string()));
      if (strings.length === 0) throw new RangeError('TXT data holds at least one string');
      return strings.join(' ');
    }
    case 'SRV':
      return `${r.u16()} ${r.u16()} ${r.u16()} ${r.name()}`;
    case 'SOA':
      return `${r.name()} ${r.name()} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()}`;
    case 'DS':
      return `${r.u16()} ${r.u8()} ${r.u8()} ${hex(r.rest())}`;
    case 'SSHFP':
      return `${r.u8()} ${r.u8()} ${hex(r.rest())}`;
    case 'TLSA':
      return `${r.u8()} ${r.u8()} ${r.u8()} ${hex(r.rest())}`;
    case 'CAA': {
      const flags = r.u8();
      const tag = fromUtf8(r.string());
      return `${flags} ${tag} ${quoteBytes(r.rest())}`;
    }
    case 'NAPTR':
      return `${r.u16()} ${r.u16()} ${quoteBytes(r.string())} ${quoteBytes(r.string())} ${quoteBytes(r.string())} ${r.name()}`;
    case 'SVCB':
    case 'HTTPS': {
      const out = [String(r.u16()), r.name()];
      while (r.left > 0) {
        const key = r.u16();
        const value = new Reader(r.take(r.u16()));
        out.push(svcParamText(key, value));
      }
      return out.join(' ');
    }
  }
}

function svcParamText(key: number, r: Reader): string {
  const name = svcKeyName(key);
  const list = (read: () => string) => {
    const items: string[] = [];
    while (r.left > 0) items.push(read());
    return items.join(',');
  };
  switch (name) {
    case 'no-default-alpn':
    case 'ohttp':
      return name;
    case 'mandatory':
      return `${name}=${list(() => svcKeyName(r.u16()))}`;
    case 'alpn':
      return `${name}=${list(() => fromUtf8(r.string()))}`;
    case 'port':
      return `${name}=${r.u16()}`;
    case 'ipv4hint':
      return `${name}=${list(() => Array.from(r.take(4)).join('.'))}`;
    case 'ipv6hint':
      return `${name}=${list(() => canonicalIpv6(Array.from({ length: 8 }, () => r.u16().toString(16)).join(':')) ?? '')}`;
    case 'ech':
      return `${name}=${btoa(String.fromCharCode(...r.rest()))}`;
    default:
      return `${name}=${quoteBytes(r.rest())}`;
  }
}

/** Reads RFC 3597 generic data: `\# <length> <hex…>` (the hex may be split by spaces). */
export function parseGenericRdata(tokens: string[]): Result<Uint8Array> {
  if (tokens[0] !== '\\#') return fail('Generic data starts with \\# and its length');
  if (tokens[1] === undefined || !/^[0-9]+$/.test(tokens[1])) return fail('After \\# comes the length of the data in bytes, e.g. \\# 4 C0000201');
  const length = Number(tokens[1]);
  const digits = tokens.slice(2).join('');
  if (!/^[0-9a-fA-F]*$/.test(digits) || digits.length % 2 !== 0) return fail('Generic data is hexadecimal digits in pairs, e.g. \\# 4 C0000201');
  if (digits.length / 2 !== length) return fail(`Generic data says ${length} bytes but holds ${digits.length / 2}`);
  if (length > 65535) return fail('Record data is at most 65,535 bytes');
  return ok(Uint8Array.from(digits.match(/../g) ?? [], (pair) => parseInt(pair, 16)));
}
