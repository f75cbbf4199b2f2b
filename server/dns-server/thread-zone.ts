/**
 * A small zone compiled for the UDP threads (read by thread-zone.cjs): every record set of every name already in
 * wire form, as the main thread's resolver (resolve.ts) would write it into an answer, so that a thread answers any
 * question to the zone without the main thread. Kept in the shared answer table as one entry per zone (a few hundred
 * bytes for a registrar's five-record zone), under the zone's generation counters like its answers, so a change
 * makes it stale at once. The answer table alone keys whole queries: 100,000 zones asked three names and three
 * types are ~500,000 questions, four times what it holds; compiled, they are 100,000 entries.
 *
 * Only zones whose every answer a thread can write from these bytes are compiled: unsigned, no wildcard, no
 * delegation below the apex, CNAMEs that end within one hop, plain lowercase names, and no zone of this service
 * below them (checked by the caller), so every name under the zone is the zone's. The rest stays with the main thread.
 *
 * Layout (big-endian): version (1) | zone name length (1), the name in ASCII (for the counts) | negative SOA length
 * (2), that SOA record (the authority of NODATA and NXDOMAIN) | name count (1) | per name: its labels' length (1) and
 * labels relative to the zone (lowercase wire, no root; none for the apex) | flags (1: 1 = CNAME) | the CNAME's target
 * (1: a name's index, TARGET_OUTSIDE, TARGET_MISSING or TARGET_CHAIN) | set count (1) | per set: type (2), answer
 * records (1), additional records (1), their byte lengths (2 + 2), then those bytes.
 */
import { createRequire } from 'node:module';
import * as dnsPacket from 'dns-packet';
import type { Answer } from 'dns-packet';
import { isAtOrBelow, toAbsolute, toRelative, withoutTrailingDot } from '#core/dns/names.ts';
import { lookup, negativeSoa, SET_TYPE_NUMBERS } from './resolve.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';
import { nameWire } from './wire-names.ts';

/** The form's layout, shared with its reader (one home: thread-zone.cjs). */
const { FORM_VERSION, FLAG_CNAME, TARGET_OUTSIDE, TARGET_MISSING, TARGET_CHAIN } = createRequire(import.meta.url)('./thread-zone.cjs') as Record<
  'FORM_VERSION' | 'FLAG_CNAME' | 'TARGET_OUTSIDE' | 'TARGET_MISSING' | 'TARGET_CHAIN',
  number
>;
/** Names per compiled zone at most (indexes below the targets' special values), and bytes. */
const MAX_NAMES = 200;
const MAX_BYTES = 4096;
/** A label the thread compares byte for byte after lowercasing the question's ASCII letters. */
const PLAIN_LABEL = /^[a-z0-9_-]{1,63}$/;

/** The zone's key in the answer table: no query's (a query's flags never have QR set), so never a query's hit. */
export function threadZoneKey(zone: string): Buffer {
  return Buffer.concat([Buffer.from([0, 0, 0xff, 0xff]), nameWire(zone)]);
}

function plainName(name: string): boolean {
  return name === '@' || name.split('.').every((label) => PLAIN_LABEL.test(label));
}

function labelsOf(rel: string): Buffer {
  if (rel === '@') return Buffer.alloc(0);
  const wire = nameWire(rel);
  return wire.subarray(0, wire.length - 1);
}

/** Records as a message's section holds them: a message of them alone, past its header. */
function recordsWire(records: Answer[]): Buffer {
  if (records.length === 0) return Buffer.alloc(0);
  return dnsPacket.encode({ type: 'response', answers: records }).subarray(12);
}

/** A set's bytes as the resolver answers it at its own name: its records, then the addresses of the names they point to. */
function setWire(snapshot: ZoneSnapshot, rel: string, typeNumber: number): Buffer | null {
  const result = lookup(snapshot, rel, typeNumber, toAbsolute(rel, snapshot.zone));
  if (result.kind !== 'answer' || result.answers.length > 255 || result.additionals.length > 255) return null;
  const answers = recordsWire(result.answers);
  const additionals = recordsWire(result.additionals);
  const head = Buffer.alloc(8);
  head.writeUInt16BE(typeNumber, 0);
  head[2] = result.answers.length;
  head[3] = result.additionals.length;
  head.writeUInt16BE(answers.length, 4);
  head.writeUInt16BE(additionals.length, 6);
  return Buffer.concat([head, answers, additionals]);
}

/** Where a CNAME at `rel` leads, as the resolver follows it: a name's index, or one of the TARGET_ values. */
function targetOf(snapshot: ZoneSnapshot, rdata: string, index: Map<string, number>): number {
  const target = withoutTrailingDot(rdata);
  if (target !== target.toLowerCase()) return TARGET_CHAIN;
  if (!isAtOrBelow(target, snapshot.zone)) return TARGET_OUTSIDE;
  const rel = toRelative(target, snapshot.zone);
  const at = index.get(rel);
  if (at === undefined) return TARGET_MISSING;
  return snapshot.nodes.get(rel)?.has('CNAME') ? TARGET_CHAIN : at;
}

/** Whether the threads can answer every question to this zone from its compiled form (see the top). */
function compilable(snapshot: ZoneSnapshot): boolean {
  if (snapshot.signed !== null || snapshot.nodes.size + snapshot.interior.size > MAX_NAMES || !/^[\x21-\x7e]+$/.test(snapshot.zone)) return false;
  for (const [rel, node] of snapshot.nodes) {
    if (!plainName(rel) || rel.startsWith('*') || rel.includes('.*')) return false;
    if (rel !== '@' && node.has('NS')) return false;
  }
  for (const rel of snapshot.interior) if (!plainName(rel)) return false;
  return true;
}

/** The zone compiled for the UDP threads, or null when a thread could not answer it all (see the top). */
export function compileThreadZone(snapshot: ZoneSnapshot): Buffer | null {
  if (!compilable(snapshot)) return null;
  const names = [...snapshot.nodes.keys(), ...snapshot.interior];
  const index = new Map(names.map((rel, i) => [rel, i]));
  const parts: Buffer[] = [];
  const zone = Buffer.from(snapshot.zone, 'latin1');
  const negative = recordsWire([negativeSoa(snapshot)]);
  parts.push(Buffer.from([FORM_VERSION, zone.length]), zone, Buffer.from([negative.length >> 8, negative.length & 255]), negative, Buffer.from([names.length]));
  for (const rel of names) {
    const node = snapshot.nodes.get(rel);
    const labels = labelsOf(rel);
    const cname = node?.get('CNAME');
    const sets: Buffer[] = [];
    for (const set of node?.values() ?? []) {
      const wire = setWire(snapshot, rel, SET_TYPE_NUMBERS[set.type]);
      if (!wire) return null;
      sets.push(wire);
    }
    if (sets.length > 255) return null;
    parts.push(Buffer.from([labels.length]), labels, Buffer.from([cname ? FLAG_CNAME : 0, cname ? targetOf(snapshot, cname.rdatas[0], index) : 0, sets.length]), ...sets);
  }
  const blob = Buffer.concat(parts);
  return blob.length <= MAX_BYTES ? blob : null;
}
