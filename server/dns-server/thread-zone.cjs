/*
 * A UDP thread's answer from a zone compiled for the threads (thread-zone.ts writes the form and says which zones
 * have one), for a question the answer table holds no answer to: the zone found in the table by the longest suffix
 * of the question's name, the name and type found in it, and the answer written as the main thread would write it
 * (resolve.ts, then server.ts's EDNS and opcode): header, the question as asked, the records, the OPT record. Anything
 * else (a name that does not exist, ANY, an option other than a cookie, an answer too big for the client) is left to
 * the main thread: -1, a miss. Plain JavaScript so a worker loads it without a TypeScript loader.
 */
'use strict';
const { find: findEntry, markAsked, unchanged } = require('./answer-table.cjs');
const { hashOf } = require('./udp-rrl.cjs');
const types = require('dns-packet/types');

/** The form's layout (thread-zone.ts writes it): its version, a name's CNAME flag, and a CNAME's special targets. */
const FORM_VERSION = 2;
const FLAG_CNAME = 1;
/** A CNAME's target outside the zone: the answer is the CNAME alone. */
const TARGET_OUTSIDE = 0xff;
/** A CNAME's target in the zone that does not exist: NXDOMAIN, the CNAME in the answer. */
const TARGET_MISSING = 0xfd;
/** A CNAME whose target is another CNAME: left to the main thread. */
const TARGET_CHAIN = 0xfe;
const EDNS_UDP_SIZE = 1232;
const CLASSIC_UDP_SIZE = 512;
const COOKIE = 10;
const MAX_LABELS = 128;

/** The question's label offsets (a thread's own, reused), the zone key being looked up, and the state a count needs. */
function zoneReader(table) {
  return {
    table,
    labels: new Int32Array(MAX_LABELS),
    key: Buffer.alloc(4 + 256),
    /** After an answer: the zone entry's id, the name's index, the type asked, DO, and where the name and zone are. */
    id: 0,
    nameIndex: 0,
    qtype: 0,
    dnssecOk: false,
    rcode: 0,
    answers: 0,
    nameAt: 0,
    /** The question answered last (a name the zone lacks is counted as asked) and where its zone's labels begin. */
    q: null,
    relEnd: 0,
    /** What the answer is counted under besides the entry: the name (or a hash of it), the type, DO. */
    sub: 0,
    /** The form being read: where it starts, its zone's wire name, names, offsets table and negative SOA. */
    form: 0,
    zoneAt: 0,
    names: 0,
    offsetsAt: 0,
    negativeAt: 0,
  };
}

const lower = (b) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b);

/** The labels of the question's name (offsets left in z.labels): their count, or -1 for a name the threads do not read. */
function readName(z, q, n) {
  let at = 12;
  let count = 0;
  while (at < n) {
    const length = q[at];
    // A name of more than 255 bytes is no name (RFC 1035 §3.1): the main thread answers it.
    if (length === 0) return at + 1 + 4 <= n && at + 1 - 12 <= 255 ? count : -1;
    if (length > 63 || count === MAX_LABELS) return -1;
    z.labels[count] = at;
    count += 1;
    at += length + 1;
  }
  return -1;
}

/**
 * The query's EDNS as far as an answer needs it: -1 when a thread leaves it to the main thread (a version other than
 * 0, an option other than one well-formed cookie, bytes after the OPT), else its UDP size | DO << 16 | present << 17.
 */
function readEdns(q, n, at, cookies) {
  if (q[11] === 0) return at === n ? 0 : -1;
  if (at + 11 > n || q[at] !== 0 || q[at + 1] !== 0 || q[at + 2] !== 41 || q[at + 6] !== 0) return -1;
  const size = (q[at + 3] << 8) | q[at + 4];
  const dnssecOk = (q[at + 7] & 0x80) !== 0;
  const rdata = (q[at + 9] << 8) | q[at + 10];
  if (at + 11 + rdata !== n) return -1;
  let options = 0;
  for (let o = at + 11; o < n; ) {
    if (o + 4 > n) return -1;
    const code = (q[o] << 8) | q[o + 1];
    const length = (q[o + 2] << 8) | q[o + 3];
    const cookieSize = length === 8 || (length >= 16 && length <= 40);
    if (code !== COOKIE || !cookieSize || !cookies || options > 0) return -1;
    options += 1;
    o += 4 + length;
    if (o > n) return -1;
  }
  return size | (dnssecOk ? 1 << 16 : 0) | (1 << 17);
}

/** The zone entry of the longest suffix of the question's name (found in z.table), or false. */
function findZone(z, q, count, nameEnd) {
  const key = z.key;
  for (let s = 0; s < count; s += 1) {
    const from = z.labels[s];
    const length = nameEnd - from;
    for (let i = 0; i < length; i += 1) key[4 + i] = lower(q[from + i]);
    key[2] = 0xff;
    key[3] = 0xff;
    if (findEntry(z.table, key, 4 + length)) return from;
  }
  return -1;
}

/**
 * The form's parts, found from its start `form` (thread-zone.ts gives the layout): where the zone's wire name is,
 * the name count, the offsets table and the negative SOA's block. Left in z.
 */
function openForm(z, bytes, form) {
  z.form = form;
  z.zoneAt = form + 1;
  const namesAt = z.zoneAt + 1 + bytes[z.zoneAt];
  z.names = bytes[namesAt];
  z.offsetsAt = namesAt + 1;
  z.negativeAt = z.offsetsAt + 2 * z.names;
}

/** Where name `i`'s entry starts. */
const nameAt = (z, bytes, i) => z.form + ((bytes[z.offsetsAt + 2 * i] << 8) | bytes[z.offsetsAt + 2 * i + 1]);

/** The index of the name asked (the question's labels before the zone's, lowercased) in the form; -1 when it has none. */
function findName(z, bytes, q, relEnd) {
  const relLength = relEnd - 12;
  for (let i = 0; i < z.names; i += 1) {
    const p = nameAt(z, bytes, i);
    if (bytes[p] !== relLength) continue;
    let same = true;
    for (let k = 0; k < relLength && same; k += 1) same = bytes[p + 1 + k] === lower(q[12 + k]);
    if (same) return i;
  }
  return -1;
}

/** The offset of the set of `type` in the name entry at `p`, or -1. A set: type (2), counts (1 + 1), two blocks. */
function findSet(bytes, p, type) {
  p += 1 + bytes[p];
  const sets = bytes[p + 2];
  p += 3;
  for (let s = 0; s < sets; s += 1) {
    if (((bytes[p] << 8) | bytes[p + 1]) === type) return p;
    p = blockEnd(bytes, blockEnd(bytes, p + 4));
  }
  return -1;
}

/** A block's length once written out, and its end as kept. */
const writtenLength = (bytes, block) => (bytes[block] << 8) | bytes[block + 1];
const blockEnd = (bytes, block) => block + 4 + ((bytes[block + 2] << 8) | bytes[block + 3]);

/** Writes the records of the block at `block` into `out` at `at`, each owner's labels then the zone's; the new end. */
function writeBlock(z, bytes, block, out, at) {
  const end = blockEnd(bytes, block);
  const zoneLength = bytes[z.zoneAt];
  for (let p = block + 4; p < end; ) {
    const owner = nameAt(z, bytes, bytes[p]);
    at += bytes.copy(out, at, owner + 1, owner + 1 + bytes[owner]);
    at += bytes.copy(out, at, z.zoneAt + 1, z.zoneAt + 1 + zoneLength);
    const length = 11 + ((bytes[p + 9] << 8) | bytes[p + 10]);
    at += bytes.copy(out, at, p + 1, p + length);
    p += length;
  }
  return at;
}

/**
 * The answer to the first `n` bytes of `q` from its zone's compiled form, written into `out` (cookie not included:
 * the caller appends it, as to a kept answer): its length, or -1 for a miss. `cookieLength`: the room the client's
 * cookie will take (0 without one). Answered, z holds what a count needs.
 */
function answerFromZone(z, q, n, out, cookies, cookieLength) {
  const count = readName(z, q, n);
  if (count <= 0) return -1;
  let nameEnd = 12;
  while (q[nameEnd] !== 0) nameEnd += q[nameEnd] + 1;
  nameEnd += 1;
  const qtype = (q[nameEnd] << 8) | q[nameEnd + 1];
  const qclass = (q[nameEnd + 2] << 8) | q[nameEnd + 3];
  // Meta types (ANY, transfers, TSIG, OPT) and DS (answered by the parent side) stay with the main thread.
  if (qclass !== 1 || qtype === 0 || qtype === 41 || qtype === 43 || (qtype >= 128 && qtype <= 255)) return -1;
  const edns = readEdns(q, n, nameEnd + 4, cookies);
  if (edns < 0) return -1;
  const zoneFrom = findZone(z, q, count, nameEnd);
  if (zoneFrom < 0) return -1;
  const t = z.table;
  const bytes = t.bytes;
  if (bytes[t.udpAt] !== FORM_VERSION) return -1;
  openForm(z, bytes, t.udpAt);
  const nameIndex = findName(z, bytes, q, zoneFrom);
  // A name the zone does not have is NXDOMAIN (a compiled zone has no wildcard), when it is plain enough to count.
  if (nameIndex < 0 && !plainLabels(q, 12, zoneFrom)) return -1;
  const entry = nameIndex < 0 ? -1 : nameAt(z, bytes, nameIndex);
  const flagsAt = entry + 1 + bytes[entry];
  let cname = -1;
  let set = nameIndex < 0 ? -1 : findSet(bytes, entry, qtype);
  let rcode = nameIndex < 0 ? 3 : 0;
  if (nameIndex >= 0 && (bytes[flagsAt] & FLAG_CNAME) !== 0 && qtype !== 5) {
    cname = findSet(bytes, entry, 5);
    const target = bytes[flagsAt + 1];
    if (cname < 0 || target === TARGET_CHAIN) return -1;
    if (target === TARGET_MISSING) rcode = 3;
    // -1: no set at the end of the CNAME (a negative answer); -2: none looked for (the target is elsewhere).
    set = target === TARGET_OUTSIDE ? -2 : target === TARGET_MISSING ? -1 : findSet(bytes, nameAt(z, bytes, target), qtype);
  }
  const hasEdns = (edns & (1 << 17)) !== 0;
  const negative = set === -1;
  const cnameBlock = cname + 4;
  const answerBlock = set + 4;
  const additionalBlock = set >= 0 ? blockEnd(bytes, answerBlock) : 0;
  const questionEnd = nameEnd + 4;
  const length =
    questionEnd +
    (cname >= 0 ? writtenLength(bytes, cnameBlock) : 0) +
    (set >= 0 ? writtenLength(bytes, answerBlock) + writtenLength(bytes, additionalBlock) : 0) +
    (negative ? writtenLength(bytes, z.negativeAt) : 0) +
    (hasEdns ? 11 : 0);
  // Room: the client's UDP size (512 without EDNS, at most what this server offers), less the cookie's.
  const limit = (hasEdns ? Math.max(CLASSIC_UDP_SIZE, Math.min(edns & 0xffff, EDNS_UDP_SIZE)) : CLASSIC_UDP_SIZE) - cookieLength;
  if (length > limit || length + cookieLength > out.length) return -1;
  const answers = (cname >= 0 ? bytes[cname + 2] : 0) + (set >= 0 ? bytes[set + 2] : 0);
  const additionals = set >= 0 ? bytes[set + 3] : 0;
  writeHeader(q, out, rcode, answers, negative ? 1 : 0, additionals + (hasEdns ? 1 : 0));
  q.copy(out, 12, 12, questionEnd);
  let at = questionEnd;
  if (cname >= 0) at = writeBlock(z, bytes, cnameBlock, out, at);
  if (set >= 0) at = writeBlock(z, bytes, additionalBlock, out, writeBlock(z, bytes, answerBlock, out, at));
  if (negative) at = writeBlock(z, bytes, z.negativeAt, out, at);
  if (hasEdns) at = writeOpt(out, at, (edns & (1 << 16)) !== 0);
  // The writer may have taken the entry while it was read: then the bytes may be another's, and it is a miss.
  if (at !== length || !unchanged(t)) return -1;
  markAsked(t);
  z.id = t.id;
  z.q = q;
  z.relEnd = zoneFrom;
  const dnssecOk = (edns & (1 << 16)) !== 0 ? 1 : 0;
  // The question as counted: a name of the form by its index, another (NXDOMAIN) by a hash of its labels.
  z.sub = nameIndex >= 0 ? ((nameIndex << 17) | (qtype << 1) | dnssecOk) + 1 : (hashOf(q, 12, zoneFrom) * 31 + qtype * 2 + dnssecOk) | 0x40000000;
  z.nameIndex = nameIndex;
  z.nameAt = entry;
  z.qtype = qtype;
  z.dnssecOk = (edns & (1 << 16)) !== 0;
  z.rcode = rcode;
  z.answers = answers;
  return at;
}

/** The answer's header: the query's ID, QR and AA, RD and CD as asked, the RCODE, one question and the counts. */
function writeHeader(q, out, rcode, answers, authorities, additionals) {
  out[0] = q[0];
  out[1] = q[1];
  out[2] = 0x84 | (q[2] & 0x01);
  out[3] = (q[3] & 0x10) | rcode;
  out[4] = 0;
  out[5] = 1;
  out[6] = answers >> 8;
  out[7] = answers & 255;
  out[8] = 0;
  out[9] = authorities;
  out[10] = 0;
  out[11] = additionals;
}

/** The answer's OPT record (edns.ts answerOpt with no option: the cookie is appended after): its end. */
function writeOpt(out, at, dnssecOk) {
  out[at] = 0;
  out[at + 1] = 0;
  out[at + 2] = 41;
  out[at + 3] = EDNS_UDP_SIZE >> 8;
  out[at + 4] = EDNS_UDP_SIZE & 255;
  out[at + 5] = 0;
  out[at + 6] = 0;
  out[at + 7] = dnssecOk ? 0x80 : 0;
  out[at + 8] = 0;
  out[at + 9] = 0;
  out[at + 10] = 0;
  return at + 11;
}

/** Whether the labels in q[from, end) are plain: letters, digits, '-' and '_' (the names a count can hold as asked). */
function plainLabels(q, from, end) {
  for (let at = from; at < end; at += 1 + q[at]) {
    if (q[at] === 0) return false;
    for (let i = at + 1; i <= at + q[at]; i += 1) {
      const c = lower(q[i]);
      if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f)) return false;
    }
  }
  return true;
}

/**
 * What the last answer is counted as, written as bytes into `out` at `at` (no string made on a thread's hot path: the
 * main thread reads them, readTallies): count (4, filled when the counts go) | the zone's wire name, its length
 * first (1) | the name asked relative to it, its length first (1: the form's labels, or the question's for a name the
 * zone lacks) | type (2) | flags (1: the answer, 0 NOERROR, 1 NODATA, 2 NXDOMAIN; DO 0x80). Its end, or -1 when it
 * does not fit.
 */
function writeTally(z, out, at) {
  const bytes = z.table.bytes;
  const zoneLength = bytes[z.zoneAt];
  const relFrom = z.nameIndex >= 0 ? z.nameAt + 1 : 12;
  const relLength = z.nameIndex >= 0 ? bytes[z.nameAt] : z.relEnd - 12;
  const end = at + 4 + 1 + zoneLength + 1 + relLength + 3;
  if (end > out.length) return -1;
  out.writeUInt32BE(0, at);
  out[at + 4] = zoneLength;
  bytes.copy(out, at + 5, z.zoneAt + 1, z.zoneAt + 1 + zoneLength);
  let p = at + 5 + zoneLength;
  out[p] = relLength;
  (z.nameIndex >= 0 ? bytes : z.q).copy(out, p + 1, relFrom, relFrom + relLength);
  p += 1 + relLength;
  out[p] = z.qtype >> 8;
  out[p + 1] = z.qtype & 255;
  out[p + 2] = (z.rcode === 3 ? 2 : z.answers > 0 ? 0 : 1) | (z.dnssecOk ? 0x80 : 0);
  return end;
}

const ANSWERS = ['NOERROR', 'NODATA', 'NXDOMAIN'];

/** Labels in wire form in b[from, end) as text, lowercased ('' for none). */
function labelsText(b, from, end) {
  const labels = [];
  for (let at = from; at < end && b[at] !== 0; at += 1 + b[at]) labels.push(b.toString('latin1', at + 1, at + 1 + b[at]).toLowerCase());
  return labels.join('.');
}

/** The tallies written by writeTally in b[0, length), as the query counter takes them: [tally, count] each. */
function readTallies(b, length = b.length) {
  const out = [];
  for (let at = 0; at < length; ) {
    const count = b.readUInt32BE(at);
    const zoneFrom = at + 5;
    const zone = labelsText(b, zoneFrom, zoneFrom + b[at + 4]);
    const relAt = zoneFrom + b[at + 4];
    const name = labelsText(b, relAt + 1, relAt + 1 + b[relAt]) || '@';
    const p = relAt + 1 + b[relAt];
    const qtype = (b[p] << 8) | b[p + 1];
    const named = types.toString(qtype);
    const type = named.startsWith('UNKNOWN_') ? `TYPE${qtype}` : named;
    out.push([{ zone, name, type, rcode: ANSWERS[b[p + 2] & 3], dnssecOk: (b[p + 2] & 0x80) !== 0 }, count]);
    at = p + 3;
  }
  return out;
}

const tallyScratch = Buffer.alloc(4 + 256 + 256 + 3);

/** What the last answer is counted as, as the bytes a kept answer's tally holds: [zone, tally] in JSON (the main thread's). */
function tallyOfLast(z) {
  const end = writeTally(z, tallyScratch, 0);
  const [[tally]] = readTallies(tallyScratch, end);
  return Buffer.from(JSON.stringify([tally.zone, tally]));
}

module.exports = { zoneReader, answerFromZone, tallyOfLast, writeTally, readTallies, FORM_VERSION, FLAG_CNAME, TARGET_OUTSIDE, TARGET_MISSING, TARGET_CHAIN };
