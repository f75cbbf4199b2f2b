/*
 * The hits a UDP thread (udp-thread.cjs) answered from the shared answer table, counted for query analytics without
 * allocating per hit: per entry id, a count and a copy of the entry's tally bytes (what the hit is counted as), both
 * in arrays made once. The copy is taken at the entry's first hit in a period because the writer may evict the entry
 * before the counts are sent (every 250 ms, or at once when these arrays are full). Plain JavaScript (a worker).
 */
'use strict';

const { unchanged } = require('./answer-table.cjs');

/** Distinct entries per period, and the bytes of their tallies (a tally is ~60 bytes of JSON). */
const ENTRIES = 1024;
const SLOTS = 2048;
const TALLY_BYTES = 96 * 1024;

function hitCounts() {
  const ids = new Int32Array(SLOTS);
  const rows = new Int32Array(SLOTS);
  const starts = new Int32Array(ENTRIES);
  const lengths = new Int32Array(ENTRIES);
  const counts = new Int32Array(ENTRIES);
  const tallies = Buffer.alloc(TALLY_BYTES);
  let entries = 0;
  let used = 0;
  return {
    get empty() {
      return entries === 0;
    },
    /**
     * One more hit on the entry the table's reader `t` found: true, or false when these arrays are full (take the
     * counts, then count again). A hit on an entry evicted while its tally was copied is not counted: rare, and its
     * bytes could be another entry's.
     */
    count(t) {
      if (t.tallyLength === 0) return true;
      let slot = Math.imul(t.id, 0x9e3779b1) >>> 21;
      for (; ids[slot] !== 0; slot = (slot + 1) & (SLOTS - 1)) {
        if (ids[slot] !== t.id) continue;
        counts[rows[slot]] += 1;
        return true;
      }
      if (entries === ENTRIES || used + t.tallyLength > TALLY_BYTES) return false;
      t.bytes.copy(tallies, used, t.tallyAt, t.tallyAt + t.tallyLength);
      if (!unchanged(t)) return true;
      ids[slot] = t.id;
      rows[slot] = entries;
      starts[entries] = used;
      lengths[entries] = t.tallyLength;
      counts[entries] = 1;
      entries += 1;
      used += t.tallyLength;
      return true;
    },
    /** The period's counts, [tally, n] as the main thread's counter takes them (see packet-cache.ts set), and a new period. */
    take() {
      const out = [];
      for (let i = 0; i < entries; i += 1) {
        const [, tally] = JSON.parse(tallies.toString('utf8', starts[i], starts[i] + lengths[i]));
        if (tally !== null) out.push([tally, counts[i]]);
      }
      ids.fill(0);
      entries = 0;
      used = 0;
      return out;
    },
  };
}

module.exports = { hitCounts };
