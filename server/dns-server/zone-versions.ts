import type { Database, Queryable } from '../db/database.ts';
import { owningZone, zoneCandidates } from '../dns/owning-zone.ts';
import type { FormMemo } from './form-memo.ts';
import { boundedLookups, type SnapshotCache } from './snapshot-cache.ts';
import type { ZoneRow } from './zone-rows.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';

const ZONE_CHANNEL = 'namefi_zone';
/** Names remembered as being, or not being, a zone of this service (about 100 bytes each). */
const LOOKUPS = 100_000;

/** The zone that holds a name, and its current snapshot when one is in memory. */
type Located = { zone: string; current: ZoneSnapshot | undefined };

/**
 * The version tracker of the zone source (zone-source.ts): which zone holds a name and which snapshot in memory is
 * still the zone's current version. Every write of a zone changes `domains.zone_version` and bumps the serial in its
 * transaction, and a trigger announces the zone on the channel `namefi_zone` at commit, as it does a zone added or
 * removed (PostgreSQL LISTEN/NOTIFY, also in PGlite): every instance drops its copy at once, so a query is answered
 * from memory without asking the database. Which zone holds a name is read from the database's index once and
 * remembered (a name that is a zone, or is not one), within a bound: nothing at start reads every zone, so start-up
 * does not grow with their number. Until the subscription is up, or after it broke, each query reads the zone's
 * version through to the database instead (one small query) and a snapshot is current only when its version is that one.
 */
export function zoneVersions(db: Queryable & Pick<Database, 'listen'>, snapshots: SnapshotCache, forms: FormMemo) {
  /** Whether a name is a zone's, while subscribed (a change of the zone forgets it: it may have been added or removed). */
  const zoneNames = boundedLookups(LOOKUPS);
  /** Whether no zone of this service lies below a zone (a zone added below forgets it), so it holds every name under it. */
  const leaves = boundedLookups(LOOKUPS);
  let subscribed = false;
  /** Bumped by every notification, so a load or lookup that raced a change is not kept. */
  let generation = 0;
  let stop: (() => Promise<void>) | null = null;
  /** Told of every zone change announced (and of a lost subscription, as null): the packet cache, NOTIFY. */
  const changeListeners = new Set<(zone: string | null) => void>();
  const announce = (zone: string | null) => {
    for (const listener of changeListeners) listener(zone);
  };

  const forgetAll = () => {
    generation += 1;
    zoneNames.clear();
    leaves.clear();
    forms.clear();
    snapshots.outdateAll();
  };
  const lost = () => {
    subscribed = false;
    forgetAll();
    announce(null);
  };

  const changed = (zone: string) => {
    generation += 1;
    snapshots.outdate(zone);
    forms.delete(zone);
    zoneNames.delete(zone);
    // A zone added or removed below another changes whether that one has zones below it.
    for (const above of zoneCandidates(zone)) {
      leaves.delete(above);
      // A kept row says whether zones lie below it: read again.
      forms.delete(above);
    }
    announce(zone);
  };

  return {
    /** Subscribes to zone changes; without it (or when it breaks) every query checks the version in the database. */
    async subscribe(): Promise<void> {
      if (!db.listen) return;
      stop = await db.listen(ZONE_CHANNEL, changed, lost);
      subscribed = true;
      forgetAll();
      announce(null);
    },
    /** Calls `listener` with the zone's name whenever a zone changes (null: the subscription was lost). Answers how to stop. */
    onChange(listener: (zone: string | null) => void): () => void {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    announce,
    /** A change this instance committed, taken at once (its announcement follows and does the same again). */
    changed,
    async close(): Promise<void> {
      await stop?.();
    },
    /** Whether zones are answered from memory (subscribed to changes). */
    get subscribed() {
      return subscribed;
    },
    /** How many changes were announced so far: a snapshot read from before the last one is not kept. */
    get generation() {
      return generation;
    },
    /** Keeps a snapshot as the zone's current one, unless a change was announced since its read began (`started`). */
    keep(zone: string, snapshot: ZoneSnapshot, started: number) {
      if (generation === started) snapshots.keepCurrent(zone, snapshot);
    },
    /**
     * While subscribed: of the names that could be the zone holding a name (longest first), the zone that does as
     * far as the names remembered tell; null when none does, undefined when the database must be asked (readZone).
     * Names not remembered above a zone remembered are no zone when that zone has none below it: a flood of random
     * names under a zone asks the database once, not once a name.
     */
    remembered(candidates: string[]): string | null | undefined {
      let unknown = false;
      for (const candidate of candidates) {
        // A zone whose form is kept is one (forgotten the moment it changes), and its row says what lies below it.
        const known = zoneNames.get(candidate) ?? (forms.has(candidate) ? true : undefined);
        if (known === true) return !unknown || (leaves.get(candidate) ?? forms.leaf(candidate)) === true ? candidate : undefined;
        if (known === undefined) unknown = true;
      }
      return unknown ? undefined : null;
    },
    /**
     * What the database answered for `candidates` (the zone holding their first, or null), read from generation
     * `started`: the longer names are no zone, the zone is one (shorter names were not asked about). Not kept when
     * a change raced the read (it may have added or removed one of them). `zonesBelow`: whether the zone has zones below it.
     */
    learn(candidates: string[], zone: string | null, started: number, zonesBelow?: boolean) {
      if (generation !== started || !subscribed) return;
      for (const candidate of candidates) {
        if (candidate === zone) break;
        zoneNames.set(candidate, false);
      }
      if (zone) zoneNames.set(zone, true);
      if (zone && zonesBelow !== undefined) leaves.set(zone, !zonesBelow);
    },
    /** Whether no zone of this service lies below `zone`, as far as remembered (undefined: not known). */
    leaf: (zone: string): boolean | undefined => leaves.get(zone) ?? forms.leaf(zone),
    /** Keeps a small unsigned zone's row as read from generation `started` (form-memo.ts), unless a change raced the read. */
    keepRow(row: ZoneRow, started: number) {
      if (generation === started && subscribed) forms.keep(row);
    },
    /** The zone's row as kept (while subscribed, so it is current): its snapshot is built from it without a read. */
    row(zone: string): ZoneRow | undefined {
      return subscribed ? forms.get(zone) : undefined;
    },
    /** The zone's snapshot in memory, when it is current (while subscribed). */
    current(zone: string): ZoneSnapshot | undefined {
      const kept = snapshots.get(zone);
      return kept?.current ? kept.snapshot : undefined;
    },
    /** Not subscribed: the same, asked of the database, with the snapshot in memory only if it is of the version there. */
    async inDatabase(qname: string): Promise<Located | null> {
      const row = await owningZone(db, qname);
      if (!row) return null;
      const cached = snapshots.get(row.name)?.snapshot;
      return { zone: row.name, current: cached?.version === String(row.version) ? cached : undefined };
    },
  };
}
