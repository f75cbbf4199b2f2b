import type { Database, Queryable } from '../db/database.ts';
import { owningZone, zoneCandidates } from '../dns/owning-zone.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';

const ZONE_CHANNEL = 'namefi_zone';

/** The zone that holds a name, and its current snapshot when one is in memory. */
type Located = { zone: string; current: ZoneSnapshot | undefined };

/**
 * The version tracker of the zone source (zone-source.ts): which zones this service holds and which snapshot in
 * memory is still the zone's current version. Every write of a zone changes `domains.zone_version` and bumps the
 * serial in its transaction, and a trigger announces the zone on the channel `namefi_zone` at commit (PostgreSQL
 * LISTEN/NOTIFY, also in PGlite): every instance drops its copy at once, so a query is answered from memory without
 * asking the database. Until the subscription is up, or after it broke, each query reads the zone's version through
 * to the database instead (one small query) and a snapshot is current only when its version is that one.
 */
export function zoneVersions(db: Queryable & Pick<Database, 'listen'>) {
  /** The current snapshot of each zone, while subscribed; else each one's last, checked against the database's version. */
  const cache = new Map<string, ZoneSnapshot>();
  /** Zone names this service holds, while subscribed; null = ask the database per query. */
  let known: Set<string> | null = null;
  /** Bumped by every notification, so a load that raced a change is not kept. */
  let generation = 0;
  let stop: (() => Promise<void>) | null = null;
  let closing = false;
  /** Existence checks in flight, awaited on close so none outlives the database. */
  const checks = new Set<Promise<void>>();
  /** Told of every zone change announced (and of a lost subscription, as null): the packet cache, NOTIFY. */
  const changeListeners = new Set<(zone: string | null) => void>();
  const announce = (zone: string | null) => {
    for (const listener of changeListeners) listener(zone);
  };

  const lost = () => {
    known = null;
    cache.clear();
    announce(null);
  };

  /** A zone added or removed: read whether it exists (a changed zone stays known meanwhile). */
  const checkExists = (zone: string) => {
    const check = db
      .query<{ name: string }>('SELECT name FROM domains WHERE name = $1', [zone])
      .then((rows) => void (rows[0] ? known?.add(zone) : known?.delete(zone)))
      .catch(lost)
      .finally(() => checks.delete(check));
    checks.add(check);
  };

  const changed = (zone: string) => {
    generation += 1;
    cache.delete(zone);
    announce(zone);
    if (known && !closing) checkExists(zone);
  };

  return {
    /** Subscribes to zone changes; without it (or when it breaks) every query checks the version in the database. */
    async subscribe(): Promise<void> {
      if (!db.listen) return;
      stop = await db.listen(ZONE_CHANNEL, changed, lost);
      generation += 1;
      const rows = await db.query<{ name: string }>('SELECT name FROM domains');
      known = new Set(rows.map((r) => r.name));
      cache.clear();
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
      closing = true;
      await stop?.();
      await Promise.all(checks);
    },
    /** Whether zones are answered from memory (subscribed to changes). */
    get subscribed() {
      return known !== null;
    },
    /** How many changes were announced so far: a snapshot read from before the last one is not kept. */
    get generation() {
      return generation;
    },
    /** Keeps a snapshot as the zone's current one, unless a change was announced since its read began (`started`). */
    keep(zone: string, snapshot: ZoneSnapshot, started: number) {
      if (generation === started) cache.set(zone, snapshot);
    },
    /**
     * While subscribed: the zone this service holds that is the closest enclosing zone of `qname` (lowercase, no
     * final dot), and its snapshot in memory, current; null when no zone holds the name. Asks nothing.
     */
    inMemory(qname: string): Located | null {
      const zone = zoneCandidates(qname).find((c) => known?.has(c));
      return zone ? { zone, current: cache.get(zone) } : null;
    },
    /** Not subscribed: the same, asked of the database, with the snapshot in memory only if it is of the version there. */
    async inDatabase(qname: string): Promise<Located | null> {
      const row = await owningZone(db, qname);
      if (!row) return null;
      const cached = cache.get(row.name);
      return { zone: row.name, current: cached?.version === String(row.version) ? cached : undefined };
    },
  };
}
