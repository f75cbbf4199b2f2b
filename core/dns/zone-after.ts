import type { ZoneRule } from '../wire/errors.ts';
import { fullName, isAtOrBelow, normaliseZone, parentName, plainName, ancestorsOf, toRelative } from './names.ts';
import type { RecordLike } from './types.ts';

export interface ZoneChange {
  creates: RecordLike[];
  /** Each update is the whole record as it would stand (the caller merges a partial update into the stored one). */
  updates: Array<RecordLike & { id: string }>;
  deletes: string[];
}

export interface ZoneViolation {
  rule: ZoneRule;
  /** Which record conflicts and how to fix it, in words a domain owner understands. */
  message: string;
  /** Index into change.creates, change.updates or change.deletes. */
  target: { kind: 'create' | 'update' | 'delete'; index: number };
  field?: 'name' | 'type' | 'rdata';
  conflictsWith?: RecordLike;
}

export type Target = ZoneViolation['target'];

/** A record the change writes, where it sits in the change. */
export type Touched = { record: RecordLike; target: Target };

/** Each name's ALIAS or CNAME target inside the zone (relative). */
type Pointers = Map<string, { type: 'ALIAS' | 'CNAME'; to: string }>;

/**
 * The zone as it would stand after a change (deletes first, then updates, then creates), read only where the
 * records the change writes can clash: their names and the names above them, their exact copies, the records below
 * the delegations they make. The rules (zone-record-rules.ts) ask it questions and never see the whole zone.
 */
export interface ZoneAfter {
  /** The apex, normalised. */
  zone: string;
  parked: boolean;
  /** Forwarded: the forwarder's addresses hold the apex, as parking's do while parked. */
  forwarding: boolean;
  /** A relative name as a person reads it, under the apex. */
  at(name: string): string;
  /** The stored record a change names by id (to update or delete), as it is before the change. */
  stored(id: string): RecordLike | undefined;
  /** The records of the zone at a touched name or at a name above one. */
  recordsAt(name: string): RecordLike[];
  /** The copies of a touched record (same name, type and data), in the zone's order. */
  copiesOf(record: RecordLike): RecordLike[];
  /** The records below a delegation the change makes. */
  below(delegation: string): RecordLike[];
  /** Glue: an A or AAAA record at a name that the delegation's own NS records point to (RFC 1034 §4.2.1). */
  isGlue(record: RecordLike, delegation: string): boolean;
  /** The zone's in-zone ALIAS and CNAME targets, read on first use; null when the zone would hold no ALIAS. */
  pointers(): Pointers | null;
}

const keyOf = (r: Pick<RecordLike, 'name' | 'type' | 'rdata'>) => `${r.name}\u0000${r.type}\u0000${r.rdata}`;

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/** The ids a change replaces or deletes. */
export function idsRemovedBy(change: ZoneChange): Set<string> {
  const removed = new Set<string>(change.deletes);
  for (const update of change.updates) removed.add(update.id);
  return removed;
}

/** Calls `visit` on every record of the zone after the change, in order: kept records, then updates, then creates. */
function forEachRecordAfter(existing: RecordLike[], removed: Set<string>, change: ZoneChange, visit: (record: RecordLike) => void) {
  for (const record of existing) if (record.id === undefined || !removed.has(record.id)) visit(record);
  for (const record of change.updates) visit(record);
  for (const record of change.creates) visit(record);
}

/** Only the records the change names by id are looked up: no index of the whole zone is built. */
export function storedRecordsNamed(existing: RecordLike[], removed: Set<string>): Map<string, RecordLike> {
  const byId = new Map<string, RecordLike>();
  if (removed.size > 0) for (const record of existing) if (record.id !== undefined && removed.has(record.id)) byId.set(record.id, record);
  return byId;
}

/** What the touched records can clash with, gathered in one pass over the zone as it would stand. */
function indexAround(touched: Touched[], eachRecord: (visit: (record: RecordLike) => void) => void) {
  const names = new Set<string>();
  const keys = new Set<string>();
  const delegations = new Set<string>();
  for (const { record } of touched) {
    names.add(record.name);
    keys.add(keyOf(record));
    for (const ancestor of ancestorsOf(record.name)) names.add(ancestor);
    if (record.type === 'NS' && record.name !== '@') delegations.add(record.name);
  }
  const byName = new Map<string, RecordLike[]>();
  const byKey = new Map<string, RecordLike[]>();
  // Records below each delegation the change makes; glue among them is told apart once the zone is read.
  const below = new Map<string, RecordLike[]>();
  const cuts = [...delegations];
  const noteBelowDelegations = (record: RecordLike) => {
    if (cuts.length <= 8) {
      for (const ancestor of cuts) if (record.name !== ancestor && isAtOrBelow(record.name, ancestor)) push(below, ancestor, record);
    } else {
      for (let ancestor = parentName(record.name); ancestor !== null; ancestor = parentName(ancestor)) if (delegations.has(ancestor)) push(below, ancestor, record);
    }
  };
  eachRecord((record) => {
    if (delegations.size > 0 && record.name !== '@') noteBelowDelegations(record);
    if (!names.has(record.name)) return;
    push(byName, record.name, record);
    const key = keyOf(record);
    if (keys.has(key)) push(byKey, key, record);
  });
  return { byName, byKey, below };
}

/** Each name's ALIAS or CNAME target inside this zone (an ALIAS wins over a CNAME at one name); null without an ALIAS. */
function pointersIn(zone: string, eachRecord: (visit: (record: RecordLike) => void) => void): Pointers | null {
  const map: Pointers = new Map();
  let aliases = 0;
  eachRecord((record) => {
    if (record.type !== 'ALIAS' && record.type !== 'CNAME') return;
    const to = plainName(record.rdata);
    if (!isAtOrBelow(to, zone)) return;
    if (record.type === 'ALIAS') aliases += 1;
    if (!map.has(record.name) || record.type === 'ALIAS') map.set(record.name, { type: record.type, to: toRelative(to, zone) });
  });
  return aliases > 0 ? map : null;
}

/** The zone as it would stand, around the records `touched` that the change writes. */
export function zoneAfter(input: {
  zoneName: string;
  existing: RecordLike[];
  change: ZoneChange;
  parked: boolean;
  forwarding: boolean;
  removed: Set<string>;
  storedById: Map<string, RecordLike>;
  touched: Touched[];
}): ZoneAfter {
  const zone = normaliseZone(input.zoneName);
  const eachRecord = (visit: (record: RecordLike) => void) => forEachRecordAfter(input.existing, input.removed, input.change, visit);
  const { byName, byKey, below } = indexAround(input.touched, eachRecord);
  let pointers: Pointers | null | undefined;
  const at = (name: string) => fullName(name, zone);
  return {
    zone,
    parked: input.parked,
    forwarding: input.forwarding,
    at,
    stored: (id) => input.storedById.get(id),
    recordsAt: (name) => byName.get(name) ?? [],
    copiesOf: (record) => byKey.get(keyOf(record)) ?? [],
    below: (delegation) => below.get(delegation) ?? [],
    isGlue(record, delegation) {
      if (record.type !== 'A' && record.type !== 'AAAA') return false;
      const host = `${at(record.name)}.`;
      return (byName.get(delegation) ?? []).some((r) => r.type === 'NS' && r.rdata === host);
    },
    pointers: () => (pointers === undefined ? (pointers = pointersIn(zone, eachRecord)) : pointers),
  };
}
