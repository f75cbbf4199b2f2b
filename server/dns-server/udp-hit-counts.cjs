/*
 * The hits a UDP thread (udp-thread.cjs) answered from the shared answer table, counted for query analytics without
 * allocating per hit: per entry id, a count and a copy of the entry's tally bytes (what the hit is counted as), both
 * in arrays made once. The copy is taken at the entry's first hit in a period because the writer may evict the entry
 * before the counts are sent (every 250 ms, or at once when these arrays are full). An answer written from a zone
 * compiled for the threads (thread-zone.cjs) is counted per zone entry and question (its name, type and DO bit; a name
 * the zone lacks by a hash of it), its tally written as bytes at its first hit in a period and read on the main
 * thread: with every question a new one, making its JSON here took more than half a thread's time. Plain JavaScript (a worker).
 */
'use strict';

const { unchanged } = require('./answer-table.cjs');
const { writeTally } = require('./thread-zone.cjs');

/** Distinct entries per period, and the bytes of their tallies (a tally is ~60 bytes of JSON). */
const ENTRIES = 1024;
const SLOTS = 2048;
const TALLY_BYTES = 96 * 1024;

function hitCounts() {
  const ids = new Int32Array(SLOTS);
  const subs = new Int32Array(SLOTS);
  const rows = new Int32Array(SLOTS);
  const starts = new Int32Array(ENTRIES);
  const lengths = new Int32Array(ENTRIES);
  const counts = new Int32Array(ENTRIES);
  const tallies = Buffer.alloc(TALLY_BYTES);
  /** The tallies of answers from compiled zones, as bytes (thread-zone.cjs writeTally: no string made per hit). */
  const zoneTallies = Buffer.alloc(TALLY_BYTES);
  let zoneUsed = 0;
  let entries = 0;
  let used = 0;
  /** The slot of (id, sub): the row counting it (>= 0), or -1 - the free slot to take. */
  const slotOf = (id, sub) => {
    let slot = Math.imul(id ^ Math.imul(sub, 0x85ebca6b), 0x9e3779b1) >>> 21;
    for (; ids[slot] !== 0; slot = (slot + 1) & (SLOTS - 1)) if (ids[slot] === id && subs[slot] === sub) return rows[slot];
    return -1 - slot;
  };
  /** A new row for (id, sub) at free slot `slot`, of the tally just copied to `used`. */
  const open = (slot, id, sub, length) => {
    ids[slot] = id;
    subs[slot] = sub;
    rows[slot] = entries;
    starts[entries] = used;
    lengths[entries] = length;
    counts[entries] = 1;
    entries += 1;
    used += length;
  };
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
      const row = slotOf(t.id, 0);
      if (row >= 0) {
        counts[row] += 1;
        return true;
      }
      if (entries === ENTRIES || used + t.tallyLength > TALLY_BYTES) return false;
      t.bytes.copy(tallies, used, t.tallyAt, t.tallyAt + t.tallyLength);
      if (!unchanged(t)) return true;
      open(-1 - row, t.id, 0, t.tallyLength);
      return true;
    },
    /**
     * One more answer from the compiled zone the reader `z` (thread-zone.cjs) answered from last, keyed by its
     * question: as `count`, false when full. Its tally is made from the zone's form at the first hit of a period.
     */
    countZone(z) {
      const sub = z.sub;
      const row = slotOf(z.id, sub);
      if (row >= 0) {
        counts[row] += 1;
        return true;
      }
      if (entries === ENTRIES) return false;
      const end = writeTally(z, zoneTallies, zoneUsed);
      if (end < 0) return false;
      if (!unchanged(z.table)) return true;
      // A zone row: its tally's bytes in zoneTallies (its length -1 marks it), its count written there when taken.
      open(-1 - row, z.id, sub, 0);
      starts[entries - 1] = zoneUsed;
      lengths[entries - 1] = -1;
      zoneUsed = end;
      return true;
    },
    /**
     * The period's counts, and a new period: those of kept answers as [tally, n] (see packet-cache.ts set), those of
     * compiled zones as the bytes of their tallies with their counts (thread-zone.cjs readTallies reads them).
     */
    take() {
      const out = [];
      for (let i = 0; i < entries; i += 1) {
        if (lengths[i] < 0) {
          zoneTallies.writeUInt32BE(counts[i], starts[i]);
          continue;
        }
        const [, tally] = JSON.parse(tallies.toString('utf8', starts[i], starts[i] + lengths[i]));
        if (tally !== null) out.push([tally, counts[i]]);
      }
      const zones = zoneUsed > 0 ? Buffer.from(zoneTallies.subarray(0, zoneUsed)) : null;
      ids.fill(0);
      entries = 0;
      used = 0;
      zoneUsed = 0;
      return { counts: out, zones };
    },
  };
}

module.exports = { hitCounts };
