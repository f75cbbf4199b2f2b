/**
 * The writer of the shared answer table (answer-table.cjs gives the layout and the protocol): the main thread alone
 * puts entries and drops zones; the UDP threads and the main thread read. Room is made by answer-table-ring.ts.
 */
import { table, type TableView } from './answer-table.ts';
import { kill, makeRoom, newId, point, ring, type Ring } from './answer-table-ring.ts';

const { H_ID, H_SIZE, H_HASH, H_LENGTHS, H_FULL, H_META, HEADER_BYTES, S_ID, S_AT, S_HASH, S_ASKED, SLOT_WORDS, BUCKET, GEN_ALL, GEN_NO_ZONE, GEN_FIXED } = table;
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

/** The slot of `hash`'s bucket to take: the one of the same question, else an unused one, else the oldest entry's. */
function slotFor(t: TableView, hash: number): number {
  const { i32 } = t;
  const first = (t.indexAt >> 2) + (hash & (t.buckets - 1)) * BUCKET * SLOT_WORDS;
  const end = first + BUCKET * SLOT_WORDS;
  for (let slot = first; slot < end; slot += SLOT_WORDS) if (i32[slot + S_ID] !== 0 && i32[slot + S_HASH] === hash) return slot;
  // A full bucket gives up its oldest entry not asked since it was written, as the ring does (second chance): an
  // answer in use outlives the one-off questions that share its bucket.
  let oldest = -1;
  let oldestAsked = first;
  for (let slot = first; slot < end; slot += SLOT_WORDS) {
    const id = i32[slot + S_ID];
    if (id === 0 || i32[(i32[slot + S_AT] >> 2) + H_ID] !== id) return slot;
    if (i32[slot + S_ASKED] === 0) {
      if (oldest < 0 || id < i32[oldest + S_ID]) oldest = slot;
    } else if (id < i32[oldestAsked + S_ID]) oldestAsked = slot;
  }
  return oldest >= 0 ? oldest : oldestAsked;
}

interface Parts {
  hash: number;
  query: Buffer;
  udp: Buffer;
  /** Null when it is the UDP answer (kept once). */
  full: Buffer | null;
  tally: Buffer | null;
  counters: number[];
}

/** Writes an entry's header (its id 0: not yet readable), its counters with their values now, and its bytes. */
function writeEntry(t: TableView, start: number, size: number, { hash, query, udp, full, tally, counters }: Parts): void {
  const { i32 } = t;
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
}

/** Makes the entry at `start` readable: its id stored last, then its index slot (the one it replaces ended first). */
function publish(r: Ring, start: number, hash: number): void {
  const { i32 } = r.t;
  const slot = slotFor(r.t, hash);
  const replaced = i32[slot + S_ID];
  if (replaced > 0 && i32[(i32[slot + S_AT] >> 2) + H_ID] === replaced) kill(r, i32[slot + S_AT] >> 2, -1);
  const id = newId(r);
  Atomics.store(i32, (start >> 2) + H_ID, id);
  point(r, slot, start >> 2, id, hash);
  r.entries += 1;
}

export function answerTableWriter(bytes: number): AnswerTableWriter {
  const t = table.openTable(new SharedArrayBuffer(Math.floor(bytes / 4) * 4));
  const arena = t.arenaEnd - t.arenaAt;
  // The largest entry: an eighth of the ring, and room for a whole answer of 65,535 bytes beside its UDP form.
  const maxEntry = Math.min(Math.floor(arena / 8), 72 * 1024);
  const r = ring(t, maxEntry);
  const subtree = (zone: string) => GEN_FIXED + counterOf(zone, t.genSlots);
  const exact = (zone: string) => GEN_FIXED + t.genSlots + counterOf(zone, t.genSlots);
  /** The counters an entry of `zone` is written under (see answer-table.cjs: generations). */
  const countersOf = (zone: string | null): number[] => (zone === null ? [GEN_ALL, GEN_NO_ZONE] : [GEN_ALL, exact(zone), subtree(zone), ...zonesAbove(zone).map(subtree)]);
  return {
    buffer: t.buffer,
    view: t,
    put(query, udp, fullAnswer, tally, zone) {
      const full = fullAnswer === udp || fullAnswer.equals(udp) ? null : fullAnswer;
      const counters = countersOf(zone);
      const size = align4(HEADER_BYTES + counters.length * 8 + query.length - 2 + udp.length + (full?.length ?? 0) + (tally?.length ?? 0));
      if (size > maxEntry || udp.length > 0xffff || (tally?.length ?? 0) > 0xffff) return false;
      const hash = table.keyHash(query, 2, query.length);
      const start = makeRoom(r, size);
      writeEntry(t, start, size, { hash, query, udp, full, tally, counters });
      publish(r, start, hash);
      return true;
    },
    drop(zone) {
      if (zone === null) {
        Atomics.add(t.i32, GEN_ALL, 1);
        return;
      }
      Atomics.add(t.i32, GEN_NO_ZONE, 1);
      Atomics.add(t.i32, subtree(zone), 1);
      for (const above of zonesAbove(zone)) Atomics.add(t.i32, exact(above), 1);
    },
    stats: () => ({ entries: r.entries, ringBytes: r.head - r.tail, arenaBytes: arena }),
  };
}
