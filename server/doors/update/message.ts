import { nameWire, readName } from '../../dns-server/wire-names.ts';

/**
 * An UPDATE message (RFC 2136 §2) read from the wire, section by section, its records kept as numbers and raw data:
 * the prerequisite and update sections hold records with empty data (class ANY and NONE), which no general DNS
 * library reads. Names inside the data of RFC 1035's types may be compressed; they are written out here, so the data
 * can be read on its own (core/dns/wire-rdata.ts). Anything that is not such a message is FORMERR.
 */

export interface WireRecord {
  /** Lowercase, no final dot. */
  name: string;
  type: number;
  klass: number;
  ttl: number;
  /** The record's data, names uncompressed. */
  data: Buffer;
}

export interface UpdateMessage {
  id: number;
  /** The zone section's name (lowercase, no final dot), its type and class. */
  zone: { name: string; type: number; klass: number };
  prerequisites: WireRecord[];
  updates: WireRecord[];
}

export const TYPE = { SOA: 6, OPT: 41, TSIG: 250, IXFR: 251, AXFR: 252, MAILB: 253, MAILA: 254, ANY: 255 } as const;
export const CLASS = { IN: 1, NONE: 254, ANY: 255 } as const;

export class MalformedUpdate extends Error {}

const malformed = (why: string): never => {
  throw new MalformedUpdate(why);
};

/** RFC 1035's types whose data holds names a sender may compress: how many names, after how many leading bytes. */
const COMPRESSIBLE: Record<number, { before: number; names: number }> = { 2: { before: 0, names: 1 }, 5: { before: 0, names: 1 }, 12: { before: 0, names: 1 }, 15: { before: 2, names: 1 }, 6: { before: 0, names: 2 } };

/** A record's data with its names written out, for the types whose names may be compressed. */
function dataOf(message: Buffer, type: number, start: number, length: number): Buffer {
  const raw = message.subarray(start, start + length);
  const shape = COMPRESSIBLE[type];
  if (!shape || length === 0) return Buffer.from(raw);
  const parts: Buffer[] = [raw.subarray(0, shape.before)];
  let at = start + shape.before;
  for (let n = 0; n < shape.names; n += 1) {
    const read = readName(message, at);
    if (read.end > start + length) malformed('a name runs past its record');
    parts.push(nameWire(read.name));
    at = read.end;
  }
  parts.push(message.subarray(at, start + length));
  return Buffer.concat(parts);
}

function readRecord(message: Buffer, offset: number): { record: WireRecord; end: number } {
  const owner = readName(message, offset);
  const at = owner.end;
  if (at + 10 > message.length) malformed('a record is cut short');
  const length = message.readUInt16BE(at + 8);
  if (at + 10 + length > message.length) malformed('a record’s data is cut short');
  const type = message.readUInt16BE(at);
  const record = { name: owner.name, type, klass: message.readUInt16BE(at + 2), ttl: message.readUInt32BE(at + 4), data: dataOf(message, type, at + 10, length) };
  return { record, end: at + 10 + length };
}

/** Reads an UPDATE message; throws MalformedUpdate (FORMERR) for anything else. The TSIG record, checked before, is the last additional. */
export function readUpdate(message: Buffer): UpdateMessage {
  try {
    return readSections(message);
  } catch (error) {
    // A name that is no name, a field past the end: the bytes are no UPDATE.
    throw error instanceof MalformedUpdate ? error : new MalformedUpdate((error as Error).message);
  }
}

function readSections(message: Buffer): UpdateMessage {
  if (message.length < 12) malformed('shorter than a header');
  const [zoneCount, prerequisiteCount, updateCount, additionalCount] = [4, 6, 8, 10].map((at) => message.readUInt16BE(at));
  if (zoneCount !== 1) malformed('the zone section holds one zone');
  let offset = 12;
  const zoneName = readName(message, offset);
  if (zoneName.end + 4 > message.length) malformed('the zone section is cut short');
  const zone = { name: zoneName.name, type: message.readUInt16BE(zoneName.end), klass: message.readUInt16BE(zoneName.end + 2) };
  offset = zoneName.end + 4;
  const sections: WireRecord[][] = [[], [], []];
  [prerequisiteCount, updateCount, additionalCount].forEach((count, section) => {
    for (let i = 0; i < count; i += 1) {
      const { record, end } = readRecord(message, offset);
      offset = end;
      sections[section].push(record);
    }
  });
  if (offset !== message.length) malformed('bytes follow the last record');
  const [prerequisites, updates, additionals] = sections;
  // TSIG only as the last additional (RFC 8945 §5.1); OPT only among the additionals.
  const misplaced = [...prerequisites, ...updates].some((r) => r.type === TYPE.TSIG || r.type === TYPE.OPT) || additionals.slice(0, -1).some((r) => r.type === TYPE.TSIG);
  if (misplaced) malformed('a TSIG or OPT record outside its place');
  return { id: message.readUInt16BE(0), zone, prerequisites, updates };
}
