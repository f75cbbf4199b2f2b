/**
 * The writer of the shared answer table (answer-table.cjs, whose comment gives the layout and the protocol): the main
 * thread alone puts entries and drops zones; the UDP threads and the main thread read. The arena is a ring: an entry
 * is written at the head, and room is made by evicting from the tail. An entry asked since it was written (its index
 * slot marked by a hit) is moved to the head once instead of evicted (second-chance FIFO, CLOCK's approximation of
 * least recently asked on a log): a ring keeps the bytes bounded with no free list and no fragmentation, and the
 * second chance keeps the zones that are asked while a flood of one-off questions passes through.
 */
import { createRequire } from 'node:module';

interface TableView {
  total: number;
  genSlots: number;
  genWords: number;
  buckets: number;
  indexAt: number;
  arenaAt: number;
  arenaEnd: number;
  buffer: SharedArrayBuffer;
  i32: Int32Array;
  bytes: Buffer;
  at: number;
  id: number;
  slot: number;
  udpAt: number;
  udpLength: number;
  fullAt: number;
  fullLength: number;
  tallyAt: number;
  tallyLength: number;
}

export const table = createRequire(import.meta.url)('./answer-table.cjs') as {
  H_ID: number;
  H_SIZE: number;
  H_HASH: number;
  H_LENGTHS: number;
  H_FULL: number;
  H_META: number;
  HEADER_BYTES: number;
  S_ID: number;
  S_AT: number;
  S_HASH: number;
  S_ASKED: number;
  SLOT_WORDS: number;
  BUCKET: number;
  GEN_ALL: number;
  GEN_NO_ZONE: number;
  GEN_FIXED: number;
  openTable(buffer: SharedArrayBuffer): TableView;
  find(t: TableView, q: Buffer, n: number): boolean;
  fresh(t: TableView, w: number): boolean;
  unchanged(t: TableView): boolean;
  markAsked(t: TableView): void;
};
const { hashOf } = createRequire(import.meta.url)('./udp-rrl.cjs') as { hashOf(bytes: Buffer, start: number, end: number): number };

const { H_ID, H_SIZE, H_HASH, H_LENGTHS, H_FULL, H_META, HEADER_BYTES, S_ID, S_AT, S_HASH, S_ASKED, SLOT_WORDS, BUCKET, GEN_ALL, GEN_NO_ZONE, GEN_FIXED } = table;
/** Entries moved to the head per put at most: a put's work stays bounded even when every entry at the tail was asked. */
const MOVES_PER_PUT = 32;
const align4 = (n: number) => (n + 3) & ~3;

export interface AnswerTableWriter {
  /** The table: handed to the UDP threads, which read it with answer-table.cjs. */
  readonly buffer: SharedArrayBuffer;
  /** The readers' view of the main thread itself. */
  readonly view: TableView;
  /** Keeps the answers to `query` (its bytes after the ID are the key); false when the entry is too large for the table. */
  put(query: Buffer, udp: Buffer, full: Buffer, tally: Buffer | null, zone: string | null): boolean;
  /** Makes stale every answer a change of `zone` may change (null: every answer). */
  drop(zone: string | null): void;
  /** Entries written and not yet evicted or replaced (stale ones included until the tail reaches them), bytes in the ring. */
  stats(): { entries: number; ringBytes: number; arenaBytes: number };
}

/** Hashes a zone name to one of `slots` counters (FNV-1a over its UTF-16 units). */
function counterOf(name: string, slots: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i += 1) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h >>> 0) & (slots - 1);
}

/** The names above `zone`, nearest first ('a.b.com': 'b.com', 'com'). */
function zonesAbove(zone: string): string[] {
  const above: string[] = [];
  for (let dot = zone.indexOf('.'); dot >= 0 && dot + 1 < zone.length; dot = zone.indexOf('.', dot + 1)) above.push(zone.slice(dot + 1));
  return above;
}

export function answerTableWriter(bytes: number): AnswerTableWriter {
  const t = table.openTable(new SharedArrayBuffer(Math.floor(bytes / 4) * 4));
  const { i32 } = t;
  const arena = t.arenaEnd - t.arenaAt;
  // The largest entry: an eighth of the ring, and room for a whole answer of 65,535 bytes beside its UDP form.
  const maxEntry = Math.min(Math.floor(arena / 8), 72 * 1024);
  const scratch = Buffer.alloc(maxEntry);
  const subtree = (zone: string) => GEN_FIXED + counterOf(zone, t.genSlots);
  const exact = (zone: string) => GEN_FIXED + t.genSlots + counterOf(zone, t.genSlots);
  /** Ring positions, counted from the start without wrapping (a JS number stays exact for 2^53 bytes written). */
  let head = 0;
  let tail = 0;
  let nextId = 1;
  let entries = 0;

  /** The counters an entry of `zone` is written under (see answer-table.cjs: generations). */
  const countersOf = (zone: string | null): number[] => {
    if (zone === null) return [GEN_ALL, GEN_NO_ZONE];
    const counters = [GEN_ALL, exact(zone), subtree(zone)];
    for (const above of zonesAbove(zone)) counters.push(subtree(above));
    return counters;
  };

  /** The index slot (word index) that points at entry `w` with `id`, or -1 (replaced by a newer entry of its bucket). */
  const slotOf = (w: number, id: number) => {
    let slot = (t.indexAt >> 2) + (i32[w + H_HASH] & (t.buckets - 1)) * BUCKET * SLOT_WORDS;
    for (let s = 0; s < BUCKET; s += 1, slot += SLOT_WORDS) if (i32[slot + S_ID] === id && i32[slot + S_AT] === w << 2) return slot;
    return -1;
  };

  /** Ends entry `w`: its id first (a reader in the middle of it sees the change), then its slot. */
  const kill = (w: number, slot: number) => {
    if (i32[w + H_ID] > 0) entries -= 1;
    Atomics.store(i32, w + H_ID, 0);
    if (slot >= 0) Atomics.store(i32, slot + S_ID, 0);
  };

  const newId = () => {
    const id = nextId;
    nextId = nextId >= 0x7fffffff ? 1 : nextId + 1;
    return id;
  };

  /** Points `slot` at entry `w`: id 0 while its other words change, so a reader sees the old pair or the new, never half. */
  const point = (slot: number, w: number, id: number, hash: number) => {
    Atomics.store(i32, slot + S_ID, 0);
    Atomics.store(i32, slot + S_HASH, hash);
    Atomics.store(i32, slot + S_AT, w << 2);
    Atomics.store(i32, slot + S_ASKED, 0);
    Atomics.store(i32, slot + S_ID, id);
  };

  /** The tail entry moved to the head when it was asked since it was written and still fits there; else false. */
  const moveToHead = (w: number, size: number, slot: number): boolean => {
    const at = head % arena;
    // The bytes it leaves at the tail make room for it at the head, unless the head is too near the end of the ring.
    if (at + size > arena) return false;
    const start = w << 2;
    t.bytes.copy(scratch, 0, start, start + size);
    kill(w, -1);
    tail += size;
    const to = (t.arenaAt + at) >> 2;
    scratch.fill(0, 0, 4); // the id, stored last
    scratch.copy(t.bytes, to << 2, 0, size);
    head += size;
    const id = newId();
    Atomics.store(i32, to + H_ID, id);
    point(slot, to, id, i32[to + H_HASH]);
    entries += 1;
    return true;
  };

  /** Frees the entry at the tail (or the padding before the end): evicted, or moved to the head if it was asked. */
  const takeTail = (moves: { left: number }) => {
    const at = tail % arena;
    if (arena - at < HEADER_BYTES) {
      tail += arena - at;
      return;
    }
    const w = (t.arenaAt + at) >> 2;
    const size = i32[w + H_SIZE];
    const id = i32[w + H_ID];
    if (id > 0) {
      const slot = slotOf(w, id);
      if (slot >= 0 && moves.left > 0 && i32[slot + S_ASKED] !== 0 && table.fresh(t, w)) {
        moves.left -= 1;
        if (moveToHead(w, size, slot)) return;
      }
      kill(w, slot);
    }
    tail += size;
  };

  /**
   * Room for `size` bytes at the head, contiguous: when they do not fit before the end of the ring, the rest of it is
   * padding (a header of id 0 that says how far to skip). Looped, since an entry moved to the head moves the head.
   */
  const makeRoom = (size: number): number => {
    const moves = { left: MOVES_PER_PUT };
    for (;;) {
      const at = head % arena;
      const pad = at + size > arena ? arena - at : 0;
      if (head + (pad || size) - tail > arena) {
        takeTail(moves);
        continue;
      }
      if (pad === 0) {
        head += size;
        return t.arenaAt + at;
      }
      if (pad >= HEADER_BYTES) {
        const w = (t.arenaAt + at) >> 2;
        Atomics.store(i32, w + H_ID, 0);
        i32[w + H_SIZE] = pad;
      }
      head += pad;
    }
  };

  /** The slot of `hash`'s bucket to take: the one of the same question, else an unused one, else the oldest entry's. */
  const slotFor = (hash: number): number => {
    const first = (t.indexAt >> 2) + (hash & (t.buckets - 1)) * BUCKET * SLOT_WORDS;
    const end = first + BUCKET * SLOT_WORDS;
    for (let slot = first; slot < end; slot += SLOT_WORDS) if (i32[slot + S_ID] !== 0 && i32[slot + S_HASH] === hash) return slot;
    let oldest = first;
    for (let slot = first; slot < end; slot += SLOT_WORDS) {
      const id = i32[slot + S_ID];
      if (id === 0 || i32[(i32[slot + S_AT] >> 2) + H_ID] !== id) return slot;
      if (id < i32[oldest + S_ID]) oldest = slot;
    }
    return oldest;
  };

  const writeEntry = (start: number, size: number, hash: number, query: Buffer, udp: Buffer, full: Buffer | null, tally: Buffer | null, counters: number[]) => {
    const w = start >> 2;
    Atomics.store(i32, w + H_ID, 0);
    i32[w + H_SIZE] = size;
    i32[w + H_HASH] = hash;
    i32[w + H_LENGTHS] = (query.length - 2) | (udp.length << 16);
    i32[w + H_FULL] = full === null ? -1 : full.length;
    i32[w + H_META] = (tally?.length ?? 0) | (counters.length << 16);
    let p = w + HEADER_BYTES / 4;
    for (const counter of counters) {
      i32[p] = counter;
      i32[p + 1] = Atomics.load(i32, counter);
      p += 2;
    }
    let at = p << 2;
    at += query.copy(t.bytes, at, 2);
    at += udp.copy(t.bytes, at);
    if (full) at += full.copy(t.bytes, at);
    if (tally) tally.copy(t.bytes, at);
  };

  return {
    buffer: t.buffer,
    view: t,
    put(query, udp, fullAnswer, tally, zone) {
      const full = fullAnswer === udp || fullAnswer.equals(udp) ? null : fullAnswer;
      const counters = countersOf(zone);
      const size = align4(HEADER_BYTES + counters.length * 8 + query.length - 2 + udp.length + (full?.length ?? 0) + (tally?.length ?? 0));
      if (size > maxEntry || udp.length > 0xffff || (tally?.length ?? 0) > 0xffff) return false;
      const hash = hashOf(query, 2, query.length);
      const start = makeRoom(size);
      writeEntry(start, size, hash, query, udp, full, tally, counters);
      const slot = slotFor(hash);
      const replaced = i32[slot + S_ID];
      if (replaced > 0 && i32[(i32[slot + S_AT] >> 2) + H_ID] === replaced) kill(i32[slot + S_AT] >> 2, -1);
      const id = newId();
      Atomics.store(i32, (start >> 2) + H_ID, id);
      point(slot, start >> 2, id, hash);
      entries += 1;
      return true;
    },
    drop(zone) {
      if (zone === null) {
        Atomics.add(i32, GEN_ALL, 1);
        return;
      }
      Atomics.add(i32, GEN_NO_ZONE, 1);
      Atomics.add(i32, subtree(zone), 1);
      for (const above of zonesAbove(zone)) Atomics.add(i32, exact(above), 1);
    },
    stats: () => ({ entries, ringBytes: head - tail, arenaBytes: arena }),
  };
}
