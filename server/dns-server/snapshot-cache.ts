import type { ZoneSnapshot } from './zone-snapshot.ts';

/**
 * What a snapshot costs in memory, estimated from what it holds (JavaScript gives no object's size): per name its
 * maps and strings, per record set and record its strings and wire data, and per name of a signed zone its RRSIGs
 * and NSEC record. Within a factor of two of what the heap grows by, which is what a budget needs.
 */
export function snapshotBytes(snapshot: ZoneSnapshot): number {
  let bytes = 600 + snapshot.zone.length * 2;
  for (const [name, node] of snapshot.nodes) {
    bytes += 160 + name.length * 2;
    for (const set of node.values()) {
      bytes += 120;
      for (const rdata of set.rdatas) bytes += 40 + rdata.length * 2;
      for (const wire of set.wire ?? []) bytes += 100 + wire.length;
    }
  }
  for (const name of snapshot.interior) bytes += 60 + name.length * 2;
  // Per signed name: about two RRSIGs (the name's sets and its NSEC's) of ~100 bytes each, the NSEC, the chain's keys.
  if (snapshot.signed) bytes += snapshot.nodes.size * 520;
  return bytes;
}

/** A zone's snapshot as kept: `current` while no change was announced since it was read. */
export interface KeptSnapshot {
  snapshot: ZoneSnapshot;
  current: boolean;
  bytes: number;
  /** What a signed or big zone's snapshot was built on besides its records (snapshot-builder.ts). */
  basis?: string;
}

/**
 * The snapshots the name server holds, within a budget in bytes (DNS_CACHE_MB): the least recently asked zones go
 * first when one more would not fit. A Map iterates in insertion order, so a zone asked again is moved to its end
 * and the first entries are the least recently asked. A snapshot bigger than the whole budget is still kept, alone
 * (a big zone built again on each query would cost far more than the budget's overrun).
 */
export function snapshotCache(budget: number) {
  const kept = new Map<string, KeptSnapshot>();
  let used = 0;
  const remove = (zone: string) => {
    const entry = kept.get(zone);
    if (!entry) return;
    kept.delete(zone);
    used -= entry.bytes;
  };
  const cache = {
    /** The zone's snapshot (current or not), counted as asked. */
    get(zone: string): KeptSnapshot | undefined {
      const entry = kept.get(zone);
      if (entry) {
        kept.delete(zone);
        kept.set(zone, entry);
      }
      return entry;
    },
    /** The zone's snapshot without counting it as asked. */
    peek: (zone: string) => kept.get(zone),
    /**
     * Keeps the zone's snapshot, in place of the one before, making room by dropping the least recently asked. With
     * a `basis` (a signed or big zone: snapshot-builder.ts), it stays once outdated, to re-sign or patch from.
     */
    set(zone: string, snapshot: ZoneSnapshot, current: boolean, basis?: string) {
      remove(zone);
      const bytes = snapshotBytes(snapshot);
      for (const [oldest] of kept) {
        if (used + bytes <= budget) break;
        remove(oldest);
      }
      kept.set(zone, { snapshot, current, bytes, basis });
      used += bytes;
    },
    /** Marks the snapshot kept as the zone's current one, keeping it if it is not there yet. */
    keepCurrent(zone: string, snapshot: ZoneSnapshot) {
      const entry = kept.get(zone);
      if (entry?.snapshot === snapshot) entry.current = true;
      else cache.set(zone, snapshot, true);
    },
    /** A change was announced: the snapshot is no longer current (kept when it has a basis, else dropped). */
    outdate(zone: string) {
      const entry = kept.get(zone);
      if (!entry) return;
      if (entry.basis !== undefined) entry.current = false;
      else remove(zone);
    },
    /** Every zone's changes may have been missed (the subscription was lost, or has just begun). */
    outdateAll() {
      // Deleting from a Map while iterating it is safe: entries deleted are not visited, none is added.
      for (const zone of kept.keys()) cache.outdate(zone);
    },
    /** Bytes held, as estimated. */
    get bytes() {
      return used;
    },
    get size() {
      return kept.size;
    },
  };
  return cache;
}
export type SnapshotCache = ReturnType<typeof snapshotCache>;

/** Names to whether a zone of this service has that name, the least recently asked dropped past `limit`. */
export function boundedLookups(limit: number) {
  const known = new Map<string, boolean>();
  return {
    get(name: string): boolean | undefined {
      const value = known.get(name);
      if (value !== undefined) {
        known.delete(name);
        known.set(name, value);
      }
      return value;
    },
    set(name: string, value: boolean) {
      known.delete(name);
      known.set(name, value);
      if (known.size > limit) known.delete(known.keys().next().value as string);
    },
    delete: (name: string) => known.delete(name),
    clear: () => known.clear(),
  };
}
