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
 * Layout (big-endian): version (1) | the zone's name in wire form, its length first (1) | name count (1) | each name's
 * offset in the form (2 each) | the negative SOA (the authority of NODATA and NXDOMAIN) as a block | per name: its
 * labels' length (1) and labels relative to the zone (lowercase wire, no root; none for the apex), flags (1: 1 =
 * CNAME), the CNAME's target (1: a name's index, TARGET_OUTSIDE, TARGET_MISSING or TARGET_CHAIN), set count (1), and
 * per set: type (2), answer and additional record counts (1 + 1), then the answer records' block and the additional
 * records' block. A block: its length as written in a message (2), as kept (2), then records, each kept as its owner's
 * name index (1; the thread writes that name's labels and the zone's) and its type, class, TTL, data length and data.
 * Kept this way a registrar's five-record zone takes ~350 bytes rather than ~700 with every owner written out.
 */
import { createRequire } from 'node:module';
import { isAtOrBelow, toRelative, withoutTrailingDot } from '#core/dns/names.ts';
import { rdataToWire } from '#core/dns/wire-rdata.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { negativeTtl, pointedNames, SET_TYPE_NUMBERS } from './resolve.ts';
import type { RecordSet, ZoneSnapshot } from './zone-snapshot.ts';
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
/** A plain name ('@': the apex) of such labels. */
function plainName(name: string): boolean {
  return name === '@' || name.split('.').every((label) => PLAIN_LABEL.test(label));
}

/** The zone's key in the answer table: no query's (a query's flags never have QR set), so never a query's hit. */
export function threadZoneKey(zone: string): Buffer {
  return Buffer.concat([Buffer.from([0, 0, 0xff, 0xff]), nameWire(zone)]);
}

function labelsOf(rel: string): Buffer {
  if (rel === '@') return Buffer.alloc(0);
  const wire = nameWire(rel);
  return wire.subarray(0, wire.length - 1);
}

/** A record as kept: its owner's name index, type, class IN, TTL, data length, data. */
type Kept = { owner: number; type: number; ttl: number; data: Uint8Array };

/** A record's data in wire form (a DNSSEC apex set keeps its own). */
const dataOf = (set: RecordSet, i: number): Uint8Array => set.wire?.[i] ?? rdataToWire(set.type as RecordType, set.rdatas[i]);

const keptOf = (set: RecordSet, owner: number, ttl = set.ttl): Kept[] => set.rdatas.map((_, i) => ({ owner, type: SET_TYPE_NUMBERS[set.type], ttl, data: dataOf(set, i) }));

/**
 * The form being written, into one buffer of MAX_BYTES: `ok` false once it would not fit. A record is kept as its
 * owner's name index (the thread writes the owner's labels and the zone's) and its type, class, TTL and data.
 */
class FormWriter {
  /** One buffer for every form written (each is copied out when done). */
  private static readonly scratch = Buffer.alloc(MAX_BYTES);
  readonly bytes = FormWriter.scratch;
  at = 0;
  ok = true;
  constructor(
    private readonly labels: Buffer[],
    private readonly zoneWire: Buffer,
  ) {}
  room(n: number): boolean {
    if (this.at + n > MAX_BYTES) this.ok = false;
    return this.ok;
  }
  u8(v: number) {
    if (this.room(1)) this.bytes[this.at++] = v;
  }
  u16(v: number) {
    if (!this.room(2)) return;
    this.bytes.writeUInt16BE(v, this.at);
    this.at += 2;
  }
  copy(b: Uint8Array) {
    if (!this.room(b.length)) return;
    this.bytes.set(b, this.at);
    this.at += b.length;
  }
  /** A block of records: its length written out in a message (2), its length as kept (2), then the records. */
  block(records: Kept[]): void {
    const head = this.at;
    if (!this.room(4)) return;
    this.at += 4;
    let written = 0;
    for (const r of records) {
      this.u8(r.owner);
      this.u16(r.type);
      this.u16(1);
      if (this.room(4)) this.at = this.bytes.writeUInt32BE(r.ttl, this.at);
      this.u16(r.data.length);
      this.copy(r.data);
      written += this.labels[r.owner].length + this.zoneWire.length + 10 + r.data.length;
    }
    if (written > 0xffff) this.ok = false;
    if (!this.ok) return;
    this.bytes.writeUInt16BE(written, head);
    this.bytes.writeUInt16BE(this.at - head - 4, head + 2);
  }
}

/** The in-zone addresses (A, then AAAA) of the names a set points to, as the resolver adds them (resolve.ts addressesFor). */
function addressesOf(snapshot: ZoneSnapshot, set: RecordSet, index: Map<string, number>): Kept[] {
  const out: Kept[] = [];
  for (const target of pointedNames(set)) {
    const host = withoutTrailingDot(target);
    if (!isAtOrBelow(host, snapshot.zone)) continue;
    const rel = toRelative(host, snapshot.zone);
    const node = snapshot.nodes.get(rel);
    const owner = index.get(rel);
    if (!node || owner === undefined) continue;
    for (const type of ['A', 'AAAA'] as const) {
      const addresses = node.get(type);
      if (addresses) out.push(...keptOf(addresses, owner));
    }
  }
  return out;
}

/** A set as the resolver answers it at its own name: type (2), counts (1 + 1), its records' block, then the addresses' block. */
function writeSet(w: FormWriter, snapshot: ZoneSnapshot, set: RecordSet, owner: number, index: Map<string, number>): void {
  const additionals = addressesOf(snapshot, set, index);
  if (set.rdatas.length > 255 || additionals.length > 255) w.ok = false;
  w.u16(SET_TYPE_NUMBERS[set.type]);
  w.u8(set.rdatas.length);
  w.u8(additionals.length);
  w.block(keptOf(set, owner));
  w.block(additionals);
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
  if (snapshot.signed !== null || snapshot.nodes.size + snapshot.interior.size > MAX_NAMES || !plainName(snapshot.zone)) return false;
  for (const [rel, node] of snapshot.nodes) {
    if (!plainName(rel) || rel.startsWith('*') || rel.includes('.*')) return false;
    if (rel !== '@' && node.has('NS')) return false;
  }
  for (const rel of snapshot.interior) if (!plainName(rel)) return false;
  return true;
}

/** One name of the form: its labels, its CNAME's target, and each of its sets. */
function writeName(w: FormWriter, snapshot: ZoneSnapshot, rel: string, index: Map<string, number>): void {
  const node = snapshot.nodes.get(rel);
  const cname = node?.get('CNAME');
  const owner = index.get(rel) as number;
  const labels = labelsOf(rel);
  w.u8(labels.length);
  w.copy(labels);
  w.u8(cname ? FLAG_CNAME : 0);
  w.u8(cname ? targetOf(snapshot, cname.rdatas[0], index) : 0);
  w.u8(node?.size ?? 0);
  for (const set of node?.values() ?? []) writeSet(w, snapshot, set, owner, index);
}

/** The zone compiled for the UDP threads (a copy: the layout is at the top), or null when a thread could not answer it all. */
export function compileThreadZone(snapshot: ZoneSnapshot): Buffer | null {
  if (!compilable(snapshot)) return null;
  const names = [...snapshot.nodes.keys(), ...snapshot.interior];
  const index = new Map(names.map((rel, i) => [rel, i]));
  const zoneWire = nameWire(snapshot.zone);
  const w = new FormWriter(names.map(labelsOf), zoneWire);
  w.u8(FORM_VERSION);
  w.u8(zoneWire.length);
  w.copy(zoneWire);
  w.u8(names.length);
  const offsets = w.at;
  w.at += 2 * names.length;
  // The negative answers' SOA: the apex's, its TTL capped by the minimum (RFC 2308 §3).
  const soa = snapshot.nodes.get('@')?.get('SOA');
  if (!soa) return null;
  w.block(keptOf(soa, index.get('@') as number, negativeTtl(soa)));
  for (const [i, rel] of names.entries()) {
    if (!w.room(0)) return null;
    w.bytes.writeUInt16BE(w.at, offsets + 2 * i);
    writeName(w, snapshot, rel, index);
  }
  return w.ok ? Buffer.from(w.bytes.subarray(0, w.at)) : null;
}
