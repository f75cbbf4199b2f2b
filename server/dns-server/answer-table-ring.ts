/**
 * The arena of the shared answer table as a ring (see answer-table.cjs for the layout and the protocol), for its one
 * writer: an entry is written at the head, room is made by evicting from the tail. An entry asked since it was written
 * (its index slot marked by a hit) is moved to the head once instead of evicted: second-chance FIFO, CLOCK's
 * approximation of least recently asked on a log. A ring keeps the bytes bounded with no free list and no
 * fragmentation, and the second chance keeps the answers in use while a flood of one-off questions passes through.
 */
import { table, type TableView } from './answer-table.ts';

const { H_ID, H_SIZE, H_HASH, HEADER_BYTES, S_ID, S_AT, S_HASH, S_ASKED, SLOT_WORDS, BUCKET } = table;
/** Entries moved to the head per put at most: a put's work stays bounded even when every entry at the tail was asked. */
const MOVES_PER_PUT = 32;

export interface Ring {
  t: TableView;
  /** The arena's size in bytes. */
  arena: number;
  /** Positions counted from the start without wrapping (a JS number stays exact for 2^53 bytes written). */
  head: number;
  tail: number;
  nextId: number;
  /** Entries live (written, not yet evicted nor replaced). */
  entries: number;
  /** Where an entry moved to the head is copied first (it may overlap its own new place). */
  scratch: Buffer;
}

export function ring(t: TableView, maxEntry: number): Ring {
  return { t, arena: t.arenaEnd - t.arenaAt, head: 0, tail: 0, nextId: 1, entries: 0, scratch: Buffer.alloc(maxEntry) };
}

export function newId(r: Ring): number {
  const id = r.nextId;
  r.nextId = r.nextId >= 0x7fffffff ? 1 : r.nextId + 1;
  return id;
}

/** The index slot (word index) that points at entry `w` with `id`, or -1 (replaced by a newer entry of its bucket). */
function slotOf(r: Ring, w: number, id: number): number {
  const { i32 } = r.t;
  let slot = (r.t.indexAt >> 2) + (i32[w + H_HASH] & (r.t.buckets - 1)) * BUCKET * SLOT_WORDS;
  for (let s = 0; s < BUCKET; s += 1, slot += SLOT_WORDS) if (i32[slot + S_ID] === id && i32[slot + S_AT] === w << 2) return slot;
  return -1;
}

/** Ends entry `w`: its id first (a reader in the middle of it sees the change), then its slot (-1: none to clear). */
export function kill(r: Ring, w: number, slot: number): void {
  const { i32 } = r.t;
  if (i32[w + H_ID] > 0) r.entries -= 1;
  Atomics.store(i32, w + H_ID, 0);
  if (slot >= 0) Atomics.store(i32, slot + S_ID, 0);
}

/** Points `slot` at entry `w`: id 0 while its other words change, so a reader sees the old pair or the new, never half. */
export function point(r: Ring, slot: number, w: number, id: number, hash: number): void {
  const { i32 } = r.t;
  Atomics.store(i32, slot + S_ID, 0);
  Atomics.store(i32, slot + S_HASH, hash);
  Atomics.store(i32, slot + S_AT, w << 2);
  Atomics.store(i32, slot + S_ASKED, 0);
  Atomics.store(i32, slot + S_ID, id);
}

/** The tail entry moved to the head; false when the head is too near the end of the ring for it. */
function moveToHead(r: Ring, w: number, size: number, slot: number): boolean {
  const { t, scratch } = r;
  const at = r.head % r.arena;
  // The bytes it leaves at the tail make room for it at the head, unless it would straddle the end.
  if (at + size > r.arena) return false;
  const start = w << 2;
  t.bytes.copy(scratch, 0, start, start + size);
  kill(r, w, -1);
  r.tail += size;
  const to = (t.arenaAt + at) >> 2;
  scratch.fill(0, 0, 4); // the id, stored last
  scratch.copy(t.bytes, to << 2, 0, size);
  r.head += size;
  const id = newId(r);
  Atomics.store(t.i32, to + H_ID, id);
  point(r, slot, to, id, t.i32[to + H_HASH]);
  r.entries += 1;
  return true;
}

/** Frees the entry at the tail (or the padding before the end): evicted, or moved to the head if it was asked. */
function takeTail(r: Ring, moves: { left: number }): void {
  const { t } = r;
  const at = r.tail % r.arena;
  if (r.arena - at < HEADER_BYTES) {
    r.tail += r.arena - at;
    return;
  }
  const w = (t.arenaAt + at) >> 2;
  const size = t.i32[w + H_SIZE];
  const id = t.i32[w + H_ID];
  if (id > 0) {
    const slot = slotOf(r, w, id);
    if (slot >= 0 && moves.left > 0 && t.i32[slot + S_ASKED] !== 0 && table.fresh(t, w)) {
      moves.left -= 1;
      if (moveToHead(r, w, size, slot)) return;
    }
    kill(r, w, slot);
  }
  r.tail += size;
}

/**
 * Room for `size` bytes at the head, contiguous: its byte offset in the table. When they do not fit before the end
 * of the ring, the rest of it is padding (a header of id 0 that says how far to skip). Looped, since an entry moved
 * to the head moves the head.
 */
export function makeRoom(r: Ring, size: number): number {
  const moves = { left: MOVES_PER_PUT };
  for (;;) {
    const at = r.head % r.arena;
    const pad = at + size > r.arena ? r.arena - at : 0;
    if (r.head + (pad || size) - r.tail > r.arena) {
      takeTail(r, moves);
      continue;
    }
    if (pad === 0) {
      r.head += size;
      return r.t.arenaAt + at;
    }
    if (pad >= HEADER_BYTES) {
      const w = (r.t.arenaAt + at) >> 2;
      Atomics.store(r.t.i32, w + H_ID, 0);
      r.t.i32[w + H_SIZE] = pad;
    }
    r.head += pad;
  }
}
