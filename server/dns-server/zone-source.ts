import type { Database, Queryable } from '../db/database.ts';
import { zoneCandidates } from '../dns/owning-zone.ts';
import { PAGED_AT, snapshotBuilder } from './snapshot-builder.ts';
import { compiledRows, zoneRows } from './zone-rows.ts';
import type { NameServerSettings, ZoneSnapshot } from './zone-snapshot.ts';
import { formMemo } from './form-memo.ts';
import { snapshotCache } from './snapshot-cache.ts';
import { zoneVersions } from './zone-versions.ts';
import { compiledFor } from './compiled-form.ts';

/** The share of the zone source's budget its snapshots may hold; the forms of zones (form-memo.ts) hold the rest. */
const SNAPSHOT_SHARE = 0.25;
/** The zone source's budget when none is given: a quarter of DNS_CACHE_MB's default (config.ts, serving-options.ts). */
const DEFAULT_CACHE_BYTES = Math.floor((96 * 1024 * 1024) / 4);

/**
 * Asked for a big zone this instance is signing for the first time (no earlier version of it in memory, e.g. just
 * after a start): answered SERVFAIL until it is signed, rather than held for the seconds signing takes.
 */
export class ZoneBeingSigned extends Error {
  constructor(zone: string) {
    super(`${zone} is being signed`);
  }
}

/**
 * Zones kept in memory and dropped the moment they change, in two parts: a version tracker (zone-versions.ts: which
 * zones exist and which snapshot is still current, told of every change by the database's `namefi_zone`
 * announcements, or asking the database per query while it is not) and a snapshot builder (snapshot-builder.ts:
 * reads a zone and builds what the name server answers, re-signing or patching from the version before). Here they
 * meet: a query takes the current snapshot, else the one a big or signing zone had while its next is built, else
 * waits for a build, which one load per zone shares.
 */
export function zoneSource(db: Queryable & Pick<Database, 'listen' | 'analyzeIfStale'>, settings: NameServerSettings, cacheBytes = DEFAULT_CACHE_BYTES) {
  // Most of the budget holds forms (a tenth of a snapshot's size each), so a zone whose snapshot went is built again
  // without a read: the snapshots hold the zones asked right now, the forms every zone asked lately.
  const snapshots = snapshotCache(Math.floor(cacheBytes * SNAPSHOT_SHARE));
  const forms = formMemo(cacheBytes - Math.floor(cacheBytes * SNAPSHOT_SHARE));
  const versions = zoneVersions(db, snapshots, forms);
  const rows = zoneRows(db);
  const builder = snapshotBuilder(db, settings, snapshots, rows);
  /** Reads of zones' forms compiled for these settings (compiled-form.ts), for cold queries. */
  const compiledRead = compiledRows(db, compiledFor(settings));
  /** Loads in flight, one per zone and generation: queries arriving meanwhile share it. */
  const loading = new Map<string, { generation: number; promise: Promise<ZoneSnapshot | null> }>();
  /** Big zones answered a version behind while their new version loads (whileSigning). */
  const behind = new Set<string>();

  /** Builds the zone and keeps it as current unless a change was announced while it was read. */
  async function loadOnce(zone: string): Promise<ZoneSnapshot | null> {
    let started = versions.generation;
    // A small unsigned zone asked before is built from its form kept in memory, without a read.
    const snapshot = await builder.build(zone, () => (started = versions.generation), 0, versions.row(zone));
    if (!snapshot) return null;
    versions.keep(zone, snapshot, started);
    // Answers made from the version before (packet cache) go, and the secondaries are told again, of this version.
    if (behind.delete(zone)) versions.announce(zone);
    return snapshot;
  }

  function load(zone: string): Promise<ZoneSnapshot | null> {
    const current = loading.get(zone);
    if (current && current.generation === versions.generation) return current.promise;
    const promise = loadOnce(zone).finally(() => {
      if (loading.get(zone)?.promise === promise) loading.delete(zone);
    });
    loading.set(zone, { generation: versions.generation, promise });
    return promise;
  }

  /**
   * A name whose zone is not remembered: which zone holds it and that zone's row in one indexed read, and when the
   * zone has a form (small, unsigned), its snapshot from that row at once. Queries of one name share the read, and
   * queries of one zone the build (a flood of one question to a cold zone builds it once).
   */
  async function locateOnce(candidates: string[]): Promise<ZoneSnapshot | null> {
    const started = versions.generation;
    const row = await rows.read(candidates);
    versions.learn(candidates, row?.name ?? null, started, row?.has_below);
    if (!row) return null;
    versions.keepRow(row, started);
    const zone = row.name;
    const current = versions.current(zone);
    if (current) return current;
    const shared = loading.get(zone);
    if (shared && shared.generation === started) return shared.promise;
    if (!row.form || row.dnssec_key) return whileSigning(zone) ?? load(zone);
    const promise: Promise<ZoneSnapshot | null> = builder
      .build(zone, () => {}, 0, row)
      .then((snapshot) => {
        if (snapshot) versions.keep(zone, snapshot, started);
        return snapshot;
      })
      .finally(() => {
        if (loading.get(zone)?.promise === promise) loading.delete(zone);
      });
    loading.set(zone, { generation: started, promise });
    return promise;
  }
  const locating = new Map<string, { generation: number; promise: Promise<ZoneSnapshot | null> }>();
  function locate(candidates: string[]): Promise<ZoneSnapshot | null> {
    const [name] = candidates;
    const current = locating.get(name);
    if (current && current.generation === versions.generation) return current.promise;
    const promise = locateOnce(candidates).finally(() => {
      if (locating.get(name)?.promise === promise) locating.delete(name);
    });
    locating.set(name, { generation: versions.generation, promise });
    return promise;
  }

  /** While a zone is signed anew on the worker, the snapshot it had (the zone keeps answering, a version behind). */
  const whileSigning = (zone: string) => {
    const previous = builder.previous(zone);
    // A big zone answers its previous version while the new one is read and signed (a version behind for that long):
    // the load starts (or is joined) here, and the query does not wait for it.
    if (previous && previous.nodes.size >= PAGED_AT) {
      behind.add(zone);
      void load(zone).catch((error: unknown) => console.error(`DNS: loading ${zone} failed`, error));
      return previous;
    }
    if (!builder.signingAnew(zone)) return undefined;
    if (!previous) throw new ZoneBeingSigned(zone);
    return previous;
  };

  return {
    subscribe: versions.subscribe,
    onChange: versions.onChange,
    async close() {
      await versions.close();
      await builder.settle();
    },
    /** Whether zones are answered from memory (subscribed to changes). */
    get subscribed() {
      return versions.subscribed;
    },
    /** The zone this service holds that is the closest enclosing zone of `qname` (lowercase, no final dot), or null. */
    async find(qname: string): Promise<ZoneSnapshot | null> {
      if (!versions.subscribed) {
        const located = await versions.inDatabase(qname);
        return located && (located.current ?? whileSigning(located.zone) ?? load(located.zone));
      }
      const candidates = zoneCandidates(qname);
      const zone = versions.remembered(candidates);
      if (zone === null) return null;
      if (zone === undefined) return locate(candidates);
      return versions.current(zone) ?? whileSigning(zone) ?? load(zone);
    },
    load,
    /**
     * The form compiled for the UDP threads (compiled-form.ts) of the zone holding `qname`, when that zone is not
     * remembered yet and holds one of its current version for these settings, with no zone below it: a cold query is
     * answered from it (server.ts) without building the zone. Null otherwise: the query takes `find`.
     */
    async compiled(qname: string): Promise<{ zone: string; form: Buffer } | null> {
      if (!versions.subscribed) return null;
      const candidates = zoneCandidates(qname);
      if (versions.remembered(candidates) !== undefined || locating.has(candidates[0])) return null;
      const started = versions.generation;
      const row = await compiledRead(candidates);
      versions.learn(candidates, row?.name ?? null, started, row?.has_below);
      if (!row?.compiled || row.has_below) return null;
      return { zone: row.name, form: row.compiled };
    },
    /**
     * The zone's current snapshot when no zone of this service lies below it, so every name under it is its: what
     * the UDP threads' compiled form of it is made from (thread-zone.ts). Undefined otherwise, or not subscribed.
     */
    whole(zone: string): ZoneSnapshot | undefined {
      if (!versions.subscribed || versions.leaf(zone) !== true) return undefined;
      return versions.current(zone);
    },
    /**
     * A change this instance committed, taken at once rather than when its announcement arrives (which follows, and
     * does the same again): DNS UPDATE answers only once the change is served here (server/dns-server/keyed.ts).
     */
    changed: versions.changed,
    signedSteps: builder.signedSteps,
    /** What is in memory: how many snapshots and forms, and their estimated bytes together against the budget. */
    cached: () => ({ zones: snapshots.size, forms: forms.size, bytes: snapshots.bytes + forms.bytes }),
  };
}
export type ZoneSource = ReturnType<typeof zoneSource>;
