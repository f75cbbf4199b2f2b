/**
 * The little of the DNS message format (RFC 1035 §4) a browser needs to ask a DoH resolver about one record: a
 * query to send, and the answers of a response, compressed names included (resolvers compress; RFC 1035 §4.1.4).
 */
import type { RecordType } from '../wire/dns.ts';
import { utf8 } from './presentation.ts';
import { withoutTrailingDot } from './names.ts';
import { validateRdata } from './rdata.ts';
import { typeNumber, type DnssecRecordType } from './dnssec.ts';
import { rdataFromWire, typeByNumber } from './wire-rdata.ts';

/**
 * A query for one name and type. `dnssecOk` adds an EDNS OPT record with the DO bit (RFC 3225), so a signed zone
 * answers with its RRSIGs.
 */
export function encodeQuery(name: string, type: RecordType | DnssecRecordType, id = 0, options: { dnssecOk?: boolean } = {}): Uint8Array {
  const labels = withoutTrailingDot(name).split('.').filter(Boolean);
  const bytes: number[] = [id >> 8, id & 0xff, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, options.dnssecOk ? 1 : 0];
  for (const label of labels) bytes.push(label.length, ...utf8(label));
  const number = typeNumber(type);
  bytes.push(0, number >> 8, number & 0xff, 0, 1);
  // OPT: root owner, type 41, 1232-byte UDP size, extended rcode 0, version 0, flags DO, no options.
  if (options.dnssecOk) bytes.push(0, 0, 41, 0x04, 0xd0, 0, 0, 0x80, 0, 0, 0);
  return Uint8Array.from(bytes);
}

export interface DnsAnswer {
  name: string;
  type: RecordType;
  ttl: number;
  /** In the stored form, so it compares with a record's rdata. */
  rdata: string;
}
/** An answer record as it came, any type (RRSIG and DNSKEY included): what a signature check reads. */
interface RawAnswer {
  name: string;
  type: number;
  ttl: number;
  data: Uint8Array;
}
export interface DnsResponse {
  rcode: number;
  answers: DnsAnswer[];
  raw: RawAnswer[];
}

const RCODE_NAMES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];
export const rcodeName = (rcode: number) => RCODE_NAMES[rcode] ?? `RCODE${rcode}`;

/** Name positions inside rdata that may be compressed (RFC 3597 §4: only in the types of RFC 1035). */
const NAME_LAYOUT: Partial<Record<RecordType, { before: number; names: number; after?: boolean }>> = {
  CNAME: { before: 0, names: 1 },
  NS: { before: 0, names: 1 },
  PTR: { before: 0, names: 1 },
  MX: { before: 2, names: 1 },
  SOA: { before: 0, names: 2, after: true },
};

/** Reads a possibly compressed name at `offset`; answers the labels and where the name ends in place. */
function readName(message: Uint8Array, offset: number): { labels: Uint8Array[]; end: number } {
  const labels: Uint8Array[] = [];
  let end = -1;
  for (let jumps = 0; jumps < 64; ) {
    const length = message[offset];
    if (length === undefined) throw new RangeError('the message ends inside a name');
    if (length === 0) return { labels, end: end < 0 ? offset + 1 : end };
    if ((length & 0xc0) === 0xc0) {
      if (end < 0) end = offset + 2;
      offset = ((length & 0x3f) << 8) | message[offset + 1];
      jumps += 1;
      continue;
    }
    labels.push(message.subarray(offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  throw new RangeError('a name points around in circles');
}

const nameText = (labels: Uint8Array[]) => labels.map((l) => new TextDecoder().decode(l)).join('.').toLowerCase();

/** Decodes the header and answer section; answers of types this service does not hold are left out. */
export function decodeResponse(message: Uint8Array): DnsResponse {
  if (message.length < 12) throw new RangeError('a DNS message has a 12-byte header');
  const u16 = (at: number) => (message[at] << 8) | message[at + 1];
  const rcode = message[3] & 0x0f;
  const questions = u16(4);
  const answerCount = u16(6);
  let offset = 12;
  for (let i = 0; i < questions; i += 1) offset = readName(message, offset).end + 4;
  const answers: DnsAnswer[] = [];
  const raw: RawAnswer[] = [];
  for (let i = 0; i < answerCount; i += 1) {
    const owner = readName(message, offset);
    offset = owner.end;
    const typeNumber = u16(offset);
    const ttl = ((message[offset + 4] << 24) >>> 0) + (message[offset + 5] << 16) + (message[offset + 6] << 8) + message[offset + 7];
    const length = u16(offset + 8);
    const start = offset + 10;
    offset = start + length;
    // RRSIG and DNSKEY data hold no compressed names (RFC 4034 §3.1.7, §2): taken as they are.
    raw.push({ name: nameText(owner.labels), type: typeNumber, ttl, data: message.slice(start, start + length) });
    const type = typeByNumber(typeNumber);
    if (!type) continue;
    let rdata = message.subarray(start, start + length);
    const layout = NAME_LAYOUT[type];
    if (layout) {
      // Rebuild the rdata with its names written out, as rdataFromWire reads it.
      const bytes: number[] = Array.from(message.subarray(start, start + layout.before));
      let at = start + layout.before;
      for (let n = 0; n < layout.names; n += 1) {
        const name = readName(message, at);
        for (const label of name.labels) bytes.push(label.length, ...label);
        bytes.push(0);
        at = name.end;
      }
      if (layout.after) bytes.push(...message.subarray(at, start + length));
      rdata = Uint8Array.from(bytes);
    }
    const text = rdataFromWire(type, rdata);
    const stored = text.ok ? validateRdata(type, text.value) : text;
    if (stored.ok) answers.push({ name: nameText(owner.labels), type, ttl, rdata: stored.value });
  }
  return { rcode, answers, raw };
}
