import type { ZoneRule } from '../wire/errors.ts';
import { managedWords } from './managed.ts';
import { ancestorsOf, fullName, isAtOrBelow, nameTooLongMessage, normaliseZone, parentName, plainName, toRelative } from './names.ts';
import { MAX_NAME_LENGTH, type ListedRecordLike, type RecordLike } from './types.ts';

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

/** The zone after a change: deletes apply first, then updates, then creates. */
export function recordsAfterChange(existing: RecordLike[], change: ZoneChange): RecordLike[] {
  const removed = new Set<string>(change.deletes);
  for (const update of change.updates) removed.add(update.id);
  const kept = removed.size === 0 ? existing : existing.filter((r) => r.id === undefined || !removed.has(r.id));
  return [...kept, ...change.updates, ...change.creates];
}

const keyOf = (r: Pick<RecordLike, 'name' | 'type' | 'rdata'>) => `${r.name}\u0000${r.type}\u0000${r.rdata}`;

function shorten(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function describeRecord(r: ListedRecordLike): string {
  return `${r.type} ${shorten(r.rdata)}${r.managed ? ' (from parking)' : ''}`;
}

/**
 * Managed records are read-only (parking's, the forwarder's, DNSSEC's keys): the words that refuse changing or deleting
 * one, the same in the record form and in the service (which refuses it before merging an update onto the stored
 * record).
 */
export function managedRecordMessage(record: ListedRecordLike & { managedBy?: string }, zoneName: string, what: 'changed' | 'deleted'): string {
  const zone = normaliseZone(zoneName);
  const words = managedWords(record.managedBy ?? 'parking');
  if (record.managedBy === 'dnssec') {
    return `The ${record.type} record at ${fullName(record.name, zone)} belongs to DNSSEC (the zone's key) and cannot be ${what}. ${words.toRemove}`;
  }
  return `The ${describeRecord(record)} record at ${fullName(record.name, zone)} belongs to ${words.by} and cannot be ${what}. ${what === 'deleted' ? words.toRemove : words.toChange}`;
}

type Target = ZoneViolation['target'];
const ALIAS_EXCLUDES = new Set<string>(['ALIAS', 'CNAME', 'A', 'AAAA']);
type Touched = { record: RecordLike; target: Target };

/**
 * Checks a change against the zone rules on the zone as it would stand afterwards. Only records the change
 * writes or deletes are judged (records already stored stay valid), and each gets at most one violation, the
 * most fundamental, so the owner fixes one thing at a time.
 */
export function checkZoneChange(input: {
  zoneName: string;
  existing: RecordLike[];
  change: ZoneChange;
  parked: boolean;
  /** Forwarded: the forwarder's addresses hold the apex, as parking's do while parked. */
  forwarding?: boolean;
}): ZoneViolation[] {
  const { existing, change, parked } = input;
  const forwarding = input.forwarding ?? false;
  const zone = normaliseZone(input.zoneName);
  const at = (name: string) => fullName(name, zone);
  const violations: ZoneViolation[] = [];

  // Only the records the change names by id are looked up: no index of the whole zone is built.
  const removed = new Set<string>(change.deletes);
  for (const update of change.updates) removed.add(update.id);
  const byId = new Map<string, RecordLike>();
  if (removed.size > 0) for (const record of existing) if (record.id !== undefined && removed.has(record.id)) byId.set(record.id, record);

  change.deletes.forEach((id, index) => {
    const record = byId.get(id);
    const target: Target = { kind: 'delete', index };
    if (!record) return;
    if (record.managed) {
      violations.push({
        rule: 'DNS_MANAGED_RECORD',
        message: managedRecordMessage(record, zone, 'deleted'),
        target,
        conflictsWith: record,
      });
    } else if (record.type === 'SOA' || (record.type === 'NS' && record.name === '@')) {
      violations.push({
        rule: 'DNS_APEX_NS_SOA',
        message: `The ${record.type} record at ${zone} belongs to the DNS provider and cannot be deleted.`,
        target,
        conflictsWith: record,
      });
    }
  });

  const touched: Touched[] = [];
  change.updates.forEach((record, index) => {
    const stored = byId.get(record.id);
    if (stored?.managed) {
      violations.push({
        rule: 'DNS_MANAGED_RECORD',
        message: managedRecordMessage(stored, zone, 'changed'),
        target: { kind: 'update', index },
        conflictsWith: stored,
      });
      return;
    }
    touched.push({ record, target: { kind: 'update', index } });
  });
  change.creates.forEach((record, index) => touched.push({ record, target: { kind: 'create', index } }));
  if (touched.length === 0) return violations;

  // One pass over the zone as it would stand, keeping only what the touched records can clash with.
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
  // Records below each delegation the change touches; glue among them is told apart once the zone is read.
  const below = new Map<string, RecordLike[]>();
  const addBelow = (ancestor: string, record: RecordLike) => {
    const list = below.get(ancestor);
    if (list) list.push(record);
    else below.set(ancestor, [record]);
  };
  const cuts = [...delegations];
  const visit = (record: RecordLike) => {
    if (delegations.size > 0 && record.name !== '@') {
      if (cuts.length <= 8) {
        for (const ancestor of cuts) if (record.name !== ancestor && isAtOrBelow(record.name, ancestor)) addBelow(ancestor, record);
      } else {
        for (let ancestor = parentName(record.name); ancestor !== null; ancestor = parentName(ancestor)) if (delegations.has(ancestor)) addBelow(ancestor, record);
      }
    }
    if (!names.has(record.name)) return;
    const sameName = byName.get(record.name);
    if (sameName) sameName.push(record);
    else byName.set(record.name, [record]);
    const key = keyOf(record);
    if (!keys.has(key)) return;
    const sameKey = byKey.get(key);
    if (sameKey) sameKey.push(record);
    else byKey.set(key, [record]);
  };
  // The zone after the change, in order: kept records, then updates, then creates.
  for (const record of existing) if (record.id === undefined || !removed.has(record.id)) visit(record);
  for (const record of change.updates) visit(record);
  for (const record of change.creates) visit(record);

  // ALIAS loops: only when the change writes an ALIAS or a CNAME, and only ALIAS and CNAME records are followed.
  const pointers = touched.some(({ record }) => record.type === 'ALIAS' || record.type === 'CNAME') ? pointersAfter() : null;
  for (const { record, target } of touched) {
    const violation = judge(record, target) ?? (pointers ? aliasLoop(record, target, pointers) : null);
    if (violation) violations.push(violation);
  }
  return violations;

  /** Each name's ALIAS or CNAME target inside this zone (relative), in the zone as it would stand; null when it has no ALIAS. */
  function pointersAfter(): Map<string, { type: 'ALIAS' | 'CNAME'; to: string }> | null {
    const map = new Map<string, { type: 'ALIAS' | 'CNAME'; to: string }>();
    let aliases = 0;
    const note = (record: RecordLike) => {
      if (record.type !== 'ALIAS' && record.type !== 'CNAME') return;
      const to = plainName(record.rdata);
      if (!isAtOrBelow(to, zone)) return;
      if (record.type === 'ALIAS') aliases += 1;
      if (!map.has(record.name) || record.type === 'ALIAS') map.set(record.name, { type: record.type, to: toRelative(to, zone) });
    };
    for (const record of existing) if (record.id === undefined || !removed.has(record.id)) note(record);
    for (const record of change.updates) note(record);
    for (const record of change.creates) note(record);
    return aliases > 0 ? map : null;
  }

  /** An ALIAS (or a CNAME) whose target leads back to its own name through ALIAS and CNAME records of this zone. */
  function aliasLoop(record: RecordLike, target: Target, pointers: Map<string, { type: 'ALIAS' | 'CNAME'; to: string }> | null): ZoneViolation | null {
    if (!pointers || (record.type !== 'ALIAS' && record.type !== 'CNAME')) return null;
    const start = pointers.get(record.name);
    if (!start) return null;
    const path = [record.name];
    let viaAlias = record.type === 'ALIAS';
    for (let name = start.to; path.length <= 16; ) {
      if (name === record.name) {
        if (!viaAlias) return null;
        const route = [...path, name].map(at).join(' → ');
        return {
          target,
          rule: 'DNS_ALIAS_LOOP',
          field: 'rdata',
          message: `${at(record.name)} would point back to itself (${route}): an ALIAS loop never resolves to an address. Point the ${record.type} at a name outside the loop.`,
        };
      }
      const next = pointers.get(name);
      if (!next) return null;
      if (next.type === 'ALIAS') viaAlias = true;
      path.push(name);
      name = next.to;
    }
    return null;
  }

  /** An ALIAS answers A and AAAA at its name: it excludes a CNAME, A and AAAA records, and a second ALIAS, there. */
  function aliasConflictAt(record: RecordLike, others: RecordLike[]): Pick<ZoneViolation, 'rule' | 'field' | 'conflictsWith' | 'message'> | null {
    const name = at(record.name);
    if (record.type === 'ALIAS') {
      const other = others.find((r) => ALIAS_EXCLUDES.has(r.type));
      if (!other) return null;
      const what = other.type === 'ALIAS' ? `already has an ALIAS (to ${shorten(other.rdata)}), and a name follows one target` : `already has ${describeRecord(other)}, and an ALIAS gives ${name} its addresses itself, so it cannot stand beside a CNAME, A or AAAA record`;
      return { rule: 'DNS_ALIAS_CONFLICT', field: 'name', conflictsWith: other, message: `${name} ${what}. Delete the ${other.type} record at ${name} first, or choose another name.` };
    }
    if (record.type !== 'CNAME' && record.type !== 'A' && record.type !== 'AAAA') return null;
    const alias = others.find((r) => r.type === 'ALIAS');
    if (!alias) return null;
    return {
      rule: 'DNS_ALIAS_CONFLICT',
      field: 'name',
      conflictsWith: alias,
      message: `${name} has an ALIAS (following ${shorten(alias.rdata)}), which answers its addresses, so it cannot also hold a ${record.type} record. Delete the ALIAS first, or choose another name.`,
    };
  }

  /** Glue: an A or AAAA record at a name that the delegation's own NS records point to (RFC 1034 §4.2.1). */
  function isGlue(record: RecordLike, delegation: string): boolean {
    if (record.type !== 'A' && record.type !== 'AAAA') return false;
    const host = `${at(record.name)}.`;
    return (byName.get(delegation) ?? []).some((r) => r.type === 'NS' && r.rdata === host);
  }

  function judge(record: RecordLike, target: Target): ZoneViolation | null {
    const name = at(record.name);
    const base = { target };
    if (name.length > MAX_NAME_LENGTH) {
      return { ...base, rule: 'DNS_NAME_TOO_LONG', field: 'name', message: nameTooLongMessage(record.name, zone) };
    }
    if (record.type === 'SOA') {
      return { ...base, rule: 'DNS_APEX_NS_SOA', field: 'type', message: `SOA records belong to the DNS provider and cannot be added or changed.` };
    }
    if (record.type === 'NS' && record.name === '@') {
      return {
        ...base,
        rule: 'DNS_APEX_NS_SOA',
        field: 'name',
        message: `The name servers of ${zone} itself are set by the DNS provider. To hand a subdomain to other name servers, give the NS record a name such as dev.`,
      };
    }
    if (record.type === 'CNAME' && record.name === '@') {
      return {
        ...base,
        rule: 'DNS_CNAME_AT_APEX',
        field: 'name',
        message: `${zone} itself cannot have a CNAME, because the zone's own records must live there. Use an A or AAAA record for ${zone}, or put the CNAME on a name such as www.`,
      };
    }
    if (record.type === 'ALIAS' && plainName(record.rdata) === name) {
      return {
        ...base,
        rule: 'DNS_ALIAS_LOOP',
        field: 'rdata',
        message: `An ALIAS at ${name} cannot point to ${name} itself: it would never resolve. Enter the host name it should follow, such as your platform's (for example app.example.net.).`,
      };
    }
    if ((parked || forwarding) && record.name === '@' && (record.type === 'A' || record.type === 'AAAA' || record.type === 'ALIAS') && !record.managed) {
      const stored = target.kind === 'update' ? byId.get((record as RecordLike & { id: string }).id) : undefined;
      const unchanged =
        stored && stored.name === record.name && stored.type === record.type && stored.rdata === record.rdata && stored.ttl === record.ttl;
      if (!unchanged) {
        return {
          ...base,
          rule: 'DNS_PARKING_CONFLICT',
          message: parked
            ? `${zone} is parked, so its address at the apex is the parking page's. Turn parking off first, then ${target.kind === 'update' ? 'change' : 'add'} your ${record.type} record for ${zone}.`
            : `${zone} is forwarded, so its address at the apex is the forwarder's. Turn forwarding off first, then ${target.kind === 'update' ? 'change' : 'add'} your ${record.type} record for ${zone}.`,
        };
      }
    }
    const same = byKey.get(keyOf(record)) ?? [];
    const position = same.indexOf(record);
    if (position > 0) {
      const other = same[0];
      return {
        ...base,
        rule: 'DNS_DUPLICATE',
        field: 'rdata',
        conflictsWith: other,
        message: `${name} already has this ${record.type} record (${shorten(record.rdata)})${other.managed ? ' from parking' : ''}. Change the value, or remove the copy.`,
      };
    }
    const others = (byName.get(record.name) ?? []).filter((r) => r !== record);
    const aliasConflict = aliasConflictAt(record, others);
    if (aliasConflict) return { ...base, ...aliasConflict };
    if (record.type === 'CNAME' && others.length > 0) {
      const other = others[0];
      return {
        ...base,
        rule: 'DNS_CNAME_CONFLICT',
        field: 'name',
        conflictsWith: other,
        message: `${name} already has ${others.length === 1 ? 'a record' : `${others.length} records`} (${describeRecord(other)}), and a name with a CNAME can hold no other record. Delete the other records at ${name} first, or choose another name.`,
      };
    }
    const cname = others.find((r) => r.type === 'CNAME');
    if (cname) {
      return {
        ...base,
        rule: 'DNS_CNAME_CONFLICT',
        field: 'name',
        conflictsWith: cname,
        message: `${name} has a CNAME (pointing to ${shorten(cname.rdata)}), so it can hold no other record. Delete the CNAME first, or choose another name.`,
      };
    }
    if (record.name !== '@') {
      if (record.type === 'NS') {
        const other = others.find((r) => r.type !== 'NS' && r.type !== 'DS');
        if (other) {
          return {
            ...base,
            rule: 'DNS_NS_EXCLUSIVE',
            field: 'name',
            conflictsWith: other,
            message: `${name} holds a ${describeRecord(other)} record, and a name handed to other name servers (NS) can hold only NS and DS records. Delete or move the other records first.`,
          };
        }
      } else if (record.type !== 'DS') {
        const ns = others.find((r) => r.type === 'NS');
        if (ns) {
          return {
            ...base,
            rule: 'DNS_NS_EXCLUSIVE',
            field: 'name',
            conflictsWith: ns,
            message: `${name} is handed to other name servers (NS ${shorten(ns.rdata)}), so it holds only NS and DS records. Add the ${record.type} record at those name servers, or remove the NS records first.`,
          };
        }
      }
    }
    for (const ancestor of ancestorsOf(record.name)) {
      const ns = byName.get(ancestor)?.find((r) => r.type === 'NS');
      if (ns && !isGlue(record, ancestor)) {
        return {
          ...base,
          rule: 'DNS_BELOW_DELEGATION',
          field: 'name',
          conflictsWith: ns,
          message: `${name} is below ${at(ancestor)}, which is handed to other name servers (NS ${shorten(ns.rdata)}); they answer for every name below it. Add the record there, or remove the delegation first.`,
        };
      }
    }
    if (record.type === 'NS' && record.name !== '@') {
      const child = below.get(record.name)?.find((r) => !isGlue(r, record.name));
      if (child) {
        return {
          ...base,
          rule: 'DNS_BELOW_DELEGATION',
          field: 'name',
          conflictsWith: child,
          message: `${name} cannot be handed to other name servers while records exist below it (such as ${describeRecord(child)} at ${at(child.name)}). Delete those first, or delegate another name.`,
        };
      }
    }
    return null;
  }
}
