import { managedWords } from './managed.ts';
import { fullName, normaliseZone } from './names.ts';
import type { ListedRecordLike, RecordLike } from './types.ts';
import { idsRemovedBy, storedRecordsNamed, zoneAfter, type Touched, type ZoneChange, type ZoneViolation } from './zone-after.ts';
import { describeRecord, firstViolation } from './zone-record-rules.ts';

export type { ZoneChange, ZoneViolation } from './zone-after.ts';

/** The zone after a change: deletes apply first, then updates, then creates. */
export function recordsAfterChange(existing: RecordLike[], change: ZoneChange): RecordLike[] {
  const removed = idsRemovedBy(change);
  const kept = removed.size === 0 ? existing : existing.filter((r) => r.id === undefined || !removed.has(r.id));
  return [...kept, ...change.updates, ...change.creates];
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

/** A delete of a managed record, or of the provider's SOA or apex NS, is refused; a delete of an unknown id is not judged. */
function deleteViolations(change: ZoneChange, storedById: Map<string, RecordLike>, zone: string): ZoneViolation[] {
  const violations: ZoneViolation[] = [];
  change.deletes.forEach((id, index) => {
    const record = storedById.get(id);
    const target = { kind: 'delete', index } as const;
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
  return violations;
}

/** The records the change writes: its creates, and its updates but those of a managed record, which are refused. */
function recordsWritten(change: ZoneChange, storedById: Map<string, RecordLike>, zone: string) {
  const refused: ZoneViolation[] = [];
  const touched: Touched[] = [];
  change.updates.forEach((record, index) => {
    const stored = storedById.get(record.id);
    if (stored?.managed) {
      refused.push({
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
  return { refused, touched };
}

/**
 * Checks a change against the zone rules on the zone as it would stand afterwards. Only records the change
 * writes or deletes are judged (records already stored stay valid), and each gets at most one violation, the
 * most fundamental, so the owner fixes one thing at a time: the rules and their rank are the table in
 * zone-record-rules.ts, asked of the zone as it would stand (zone-after.ts).
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
  const zone = normaliseZone(input.zoneName);
  const removed = idsRemovedBy(change);
  const storedById = storedRecordsNamed(existing, removed);
  const violations = deleteViolations(change, storedById, zone);
  const { refused, touched } = recordsWritten(change, storedById, zone);
  violations.push(...refused);
  if (touched.length === 0) return violations;

  const after = zoneAfter({ zoneName: input.zoneName, existing, change, parked, forwarding: input.forwarding ?? false, removed, storedById, touched });
  for (const { record, target } of touched) {
    const others = after.recordsAt(record.name).filter((r) => r !== record);
    const violation = firstViolation({ record, target, name: after.at(record.name), others }, after);
    if (violation) violations.push(violation);
  }
  return violations;
}
