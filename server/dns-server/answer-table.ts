/**
 * The shared answer table's layout and readers (answer-table.cjs, plain JavaScript for the UDP threads), typed for
 * the main thread: packet-cache.ts reads through it, answer-table-ring.ts and answer-table-writer.ts write.
 */
import { createRequire } from 'node:module';

/** A reader's (or the writer's) view of one table: its layout, its views, and what the last `find` found. */
export interface TableView {
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
  /** The index hash of a key (bytes start..end): what `find` and the writer place it by. */
  keyHash(bytes: Buffer, start: number, end: number): number;
  fresh(t: TableView, w: number): boolean;
  unchanged(t: TableView): boolean;
  markAsked(t: TableView): void;
};
