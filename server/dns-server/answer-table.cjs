/*
 * The packet cache's one table of answers, in a SharedArrayBuffer: written by the main thread only
 * (answer-table-writer.ts), read by every UDP thread (udp-thread.cjs) and by the main thread directly, so no thread
 * keeps a copy and the whole cache is bounded by the buffer's size (DNS_CACHE_MB). This file is the layout and the
 * readers' side; plain JavaScript so a worker loads it without a TypeScript loader.
 *
 * Layout, all in one buffer: [generations | index | arena].
 * - Generations (Int32): [0] everything, [1] the answers of no zone, then GEN_SLOTS "subtree" counters and GEN_SLOTS
 *   "exact" counters, a zone name hashed to one of each. An entry carries the (counter, value) pairs it was written
 *   under; a drop bumps counters, and an entry whose pair no longer matches is stale. A change of zone Z bumps Z's
 *   subtree counter (every entry of Z or of a zone below it carries it) and the exact counter of each zone above Z,
 *   so packet-cache.ts's rule (a zone's change drops its answers and those of zones above and below it) costs a few
 *   counters per change and a few loads per hit, whatever the number of entries. Two names hashed to one counter
 *   only drop more than needed, never less.
 * - Index: buckets of BUCKET slots of [id, entry offset, hash, referenced]: a query's 32-bit hash picks its bucket.
 *   No probing, no deletion: a slot whose entry is gone is simply taken again by the writer.
 * - Arena: a ring of entries (header, generation pairs, key, UDP answer, whole answer, tally), written at the head,
 *   evicted from the tail, each entry 4-byte aligned and never straddling the end.
 *
 * Single writer, many readers, no lock: every entry has a unique id, stored last when it is written (Atomics.store)
 * and set to 0 first when it is evicted, before its bytes are overwritten. A reader checks the id against the
 * index's, reads what it needs (the key, the answer copied out), and checks the id again (`unchanged`): a changed id
 * means the writer took the bytes meanwhile, and the query is a miss (handed to the main thread), never a torn
 * answer. Readers never write the arena (their bytes could already belong to another entry); a hit marks its index
 * slot instead, which the writer reads as "asked since written" when the entry reaches the tail (second chance).
 * Atomics operations are sequentially consistent and V8 orders plain accesses around them (on x86-64 loads are not
 * reordered with loads in any case), which is what the id check needs.
 */
'use strict';

const { hashOf } = require('./udp-rrl.cjs');

/** Entry header words: id, size in bytes, query hash, key length | UDP length << 16, whole length (-1: the UDP one), tally length | pairs << 16. */
const H_ID = 0;
const H_SIZE = 1;
const H_HASH = 2;
const H_LENGTHS = 3;
const H_FULL = 4;
const H_META = 5;
const HEADER_BYTES = 24;
/** Index slot words. */
const S_ID = 0;
const S_AT = 1;
const S_HASH = 2;
const S_ASKED = 3;
const SLOT_WORDS = 4;
const BUCKET = 4;
const GEN_ALL = 0;
const GEN_NO_ZONE = 1;
const GEN_FIXED = 2;

const pow2Below = (n) => 2 ** Math.floor(Math.log2(Math.max(1, n)));

/**
 * Where everything lives in a table of `bytes` bytes: about a thirty-second for generations (at most 2 × 65,536
 * counters), an eighth to a quarter for the index (one slot per 64 to 128 bytes: entries are ~150-300 bytes), the
 * rest for the arena.
 */
function layoutOf(bytes) {
  const total = Math.floor(bytes / 4) * 4;
  const genSlots = Math.min(65536, Math.max(16, pow2Below(total / 256)));
  const genWords = GEN_FIXED + 2 * genSlots;
  const buckets = Math.max(4, pow2Below(total / 128 / BUCKET));
  const indexAt = genWords * 4;
  const arenaAt = indexAt + buckets * BUCKET * SLOT_WORDS * 4;
  if (arenaAt + 1024 > total) throw new Error(`An answer table of ${bytes} bytes is too small`);
  return { total, genSlots, genWords, buckets, indexAt, arenaAt, arenaEnd: total };
}

/** The views over a table's buffer, and the reader's state (what the last `find` found). */
function openTable(buffer) {
  const layout = layoutOf(buffer.byteLength);
  return {
    ...layout,
    buffer,
    i32: new Int32Array(buffer),
    bytes: Buffer.from(buffer),
    /** The last found entry's word index, id, index slot word, and where its parts are (byte offsets). */
    at: -1,
    id: 0,
    slot: -1,
    keyAt: 0,
    udpAt: 0,
    udpLength: 0,
    fullAt: 0,
    fullLength: 0,
    tallyAt: 0,
    tallyLength: 0,
  };
}

/**
 * The index hash of a key in bytes start..end of `bytes`: FNV-1a, then MurmurHash3's finaliser. The index takes a
 * bucket from the hash's low bits, and FNV-1a's low bits mix only upward (a multiply carries into higher bits, never
 * lower), so names that differ little share buckets: 100,000 zones' compiled forms left 400 past their bucket's four
 * slots (each evicting another zone's form at every pass over them, the ring growing by their forms written again)
 * against 171 finalised, what a random hash gives.
 */
function keyHash(bytes, start, end) {
  let h = hashOf(bytes, start, end);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/**
 * Finds the entry kept for the query in bytes 2..n of `q` (the ID is no part of the key): true when found, its parts
 * left in `t`. The caller reads what it needs, then calls `unchanged(t)` before using it.
 */
function find(t, q, n) {
  const h = keyHash(q, 2, n);
  const i32 = t.i32;
  let slot = (t.indexAt >> 2) + (h & (t.buckets - 1)) * BUCKET * SLOT_WORDS;
  for (let s = 0; s < BUCKET; s += 1, slot += SLOT_WORDS) {
    if (Atomics.load(i32, slot + S_HASH) !== h) continue;
    const id = Atomics.load(i32, slot + S_ID);
    const at = Atomics.load(i32, slot + S_AT);
    if (id <= 0 || at < t.arenaAt || at + HEADER_BYTES > t.arenaEnd || (at & 3) !== 0) continue;
    const w = at >> 2;
    // The hash again in the header: an index slot left pointing into the middle of newer bytes matches neither.
    if (Atomics.load(i32, w + H_ID) !== id || i32[w + H_HASH] !== h || !readParts(t, w, n - 2)) continue;
    if (q.compare(t.bytes, t.keyAt, t.keyAt + n - 2, 2, n) !== 0 || !fresh(t, w)) continue;
    t.at = w;
    t.id = id;
    t.slot = slot;
    return true;
  }
  t.at = -1;
  return false;
}

/** Reads entry `w`'s lengths into `t`; false when they do not fit its size (torn: the writer is taking it). */
function readParts(t, w, keyLength) {
  const i32 = t.i32;
  const size = i32[w + H_SIZE];
  const lengths = i32[w + H_LENGTHS];
  const meta = i32[w + H_META];
  const full = i32[w + H_FULL];
  const start = w << 2;
  if ((lengths & 0xffff) !== keyLength || size <= 0 || start + size > t.arenaEnd) return false;
  const pairs = meta >>> 16;
  t.keyAt = start + HEADER_BYTES + pairs * 8;
  t.udpAt = t.keyAt + keyLength;
  t.udpLength = lengths >>> 16;
  // -1: the whole answer is the UDP one, kept once.
  t.fullAt = full < 0 ? t.udpAt : t.udpAt + t.udpLength;
  t.fullLength = full < 0 ? t.udpLength : full;
  t.tallyAt = t.fullAt + t.fullLength;
  t.tallyLength = meta & 0xffff;
  return t.tallyAt + t.tallyLength <= start + size;
}

/** Whether entry `w`'s generation pairs all still hold: no drop since it was written touched its zone. */
function fresh(t, w) {
  const i32 = t.i32;
  const pairs = i32[w + H_META] >>> 16;
  for (let p = w + HEADER_BYTES / 4, end = p + pairs * 2; p < end; p += 2) {
    const counter = i32[p];
    if (counter < 0 || counter >= t.genWords || Atomics.load(i32, counter) !== i32[p + 1]) return false;
  }
  return true;
}

/** Whether the entry `find` found is still that entry (checked after its bytes were read: see the top). */
function unchanged(t) {
  return Atomics.load(t.i32, t.at + H_ID) === t.id;
}

/** Marks the found entry asked: the writer gives it a second chance when it reaches the tail (a load first, so a hot entry is not written by every hit). */
function markAsked(t) {
  if (t.i32[t.slot + S_ASKED] === 0) Atomics.store(t.i32, t.slot + S_ASKED, 1);
}

module.exports = {
  H_ID,
  H_SIZE,
  H_HASH,
  H_LENGTHS,
  H_FULL,
  H_META,
  HEADER_BYTES,
  S_ID,
  S_AT,
  S_HASH,
  S_ASKED,
  SLOT_WORDS,
  BUCKET,
  GEN_ALL,
  GEN_NO_ZONE,
  GEN_FIXED,
  layoutOf,
  openTable,
  find,
  keyHash,
  fresh,
  unchanged,
  markAsked,
};
