import * as dnsPacket from 'dns-packet';
import { validateRdata } from '#core/dns/rdata.ts';
import { rdataFromWire, typeByNumber } from '#core/dns/wire-rdata.ts';
import type { RecordType } from '#core/wire/dns.ts';

/*
 * A DNS message as the service reads it, decoded by dns-packet: the header's id, rcode and flags, and the answer
 * section as wire records whose data is written out whole (names uncompressed), so that the kernel's rdata codec
 * (core/dns/wire-rdata.ts, the same the name server encodes with) gives each its stored text form.
 */

export interface WireRecord {
  /** Lowercase, no final dot. */
  name: string;
  type: number;
  ttl: number;
  /** The record's data with every name written out (RFC 1035 §4.1.4 compression undone). */
  data: Uint8Array;
}

export interface Reply {
  id: number;
  rcode: number;
  truncated: boolean;
  questions: Array<{ name: string; type: string }>;
  answers: WireRecord[];
}

/** A record in the service's stored form: the text a record of a zone holds, so the two compare. */
export interface StoredAnswer {
  name: string;
  type: RecordType;
  ttl: number;
  rdata: string;
}

export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;
const RCODE_NAMES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];
export const rcodeName = (rcode: number) => RCODE_NAMES[rcode] ?? `RCODE${rcode}`;

/** dns-packet's own codecs, which its published types leave out: a name, and one type's rdata (length first). */
interface RdataCodec {
  decode(buf: Buffer, offset: number): unknown;
  encode(data: unknown): Buffer;
}
const codecs = dnsPacket as unknown as {
  name: { decode: ((buf: Buffer, offset: number) => string) & { bytes: number } };
  record(type: string): RdataCodec;
};

/** The types whose data may hold compressed names (RFC 3597 §4: only those of RFC 1035), by number. */
const COMPRESSIBLE: Record<number, string> = { 2: 'NS', 5: 'CNAME', 6: 'SOA', 12: 'PTR', 15: 'MX' };

/** Decodes a reply; throws on a malformed message (dns-packet reads it whole first, every section). */
export function decodeReply(message: Buffer): Reply {
  const packet = dnsPacket.decode(message);
  let offset = 12;
  for (let i = 0; i < (packet.questions ?? []).length; i += 1) {
    codecs.name.decode(message, offset);
    offset += codecs.name.decode.bytes + 4;
  }
  const answers: WireRecord[] = [];
  for (let i = 0; i < (packet.answers ?? []).length; i += 1) {
    const name = codecs.name.decode(message, offset).toLowerCase();
    offset += codecs.name.decode.bytes;
    const type = message.readUInt16BE(offset);
    const ttl = message.readUInt32BE(offset + 4);
    const length = message.readUInt16BE(offset + 8);
    const start = offset + 10;
    offset = start + length;
    const compressible = COMPRESSIBLE[type];
    // Read within the whole message (where its pointers lead), written again without compression.
    const data = compressible
      ? codecs.record(compressible).encode(codecs.record(compressible).decode(message, start - 2)).subarray(2)
      : message.subarray(start, start + length);
    answers.push({ name: name === '.' ? '' : name, type, ttl, data: new Uint8Array(data) });
  }
  return {
    id: packet.id ?? 0,
    rcode: (packet.flags ?? 0) & 0x0f,
    truncated: packet.flag_tc,
    questions: (packet.questions ?? []).map((q) => ({ name: q.name.toLowerCase(), type: q.type })),
    answers,
  };
}

/** The answers of types the service holds, in their stored form; data the service would not accept is left out. */
export function storedAnswers(records: readonly WireRecord[]): StoredAnswer[] {
  const stored: StoredAnswer[] = [];
  for (const record of records) {
    const type = typeByNumber(record.type);
    if (!type) continue;
    const text = rdataFromWire(type, record.data);
    const valid = text.ok ? validateRdata(type, text.value) : text;
    if (valid.ok) stored.push({ name: record.name, type, ttl: record.ttl, rdata: valid.value });
  }
  return stored;
}
