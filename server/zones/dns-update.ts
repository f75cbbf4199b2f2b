import { managedRecordMessage } from '#core/dns/zone-rules.ts';
import type { ManagedBy } from '#core/dns/managed.ts';
import { fullName } from '#core/dns/names.ts';
import type { RecordLike } from '#core/dns/types.ts';
import type { DnsRecord, RecordType } from '#core/wire/dns.ts';
import type { Queryable } from '../db/database.ts';
import { managedRecords, readZoneState } from '../dns/zone-read.ts';
import { checkRecords } from '../dns/zone-validate.ts';
import { invalidInput } from '../domain-errors.ts';
import type { ZoneCommand } from './pipeline.ts';
import { recordsCommand } from './records.ts';

/**
 * A DNS UPDATE message (RFC 2136) as one zone change: its prerequisites (§2.4, §3.2) checked on the zone as it
 * stands under the pipeline's lock, then its updates (§2.5, §3.4.2) applied in order to a copy of the records they
 * touch, and the difference written as one records change (recordsCommand: managed records, the zone rules, the write).
 * The door (server/doors/update/) reads the wire; here every name is relative (`@` the apex) and every rdata in its
 * stored form. The provider's own records (SOA, apex NS, managed ones) are never added or removed: such an update is
 * refused (a 400 naming the record and the rule); deleting every RRset at a name leaves the SOA, the apex NS,
 * DNSSEC's records and an ALIAS's addresses (which go with the ALIAS).
 */

/** A type as the message names it: one the service stores, or `TYPEnn` for any other. */
export type UpdateType = RecordType | `TYPE${number}`;

export type Prerequisite =
  | { kind: 'nameInUse' | 'nameNotInUse'; name: string }
  | { kind: 'rrsetExists' | 'rrsetNotExists'; name: string; type: UpdateType }
  | { kind: 'rrsetEquals'; name: string; type: UpdateType; rdatas: string[] };

export type UpdateOperation =
  | { kind: 'add'; name: string; type: RecordType; ttl: number; rdata: string }
  | { kind: 'deleteRrset'; name: string; type: UpdateType }
  | { kind: 'deleteName'; name: string }
  | { kind: 'deleteRecord'; name: string; type: UpdateType; rdata: string };

export interface DnsUpdate {
  prerequisites: Prerequisite[];
  operations: UpdateOperation[];
  /** The apex SOA and NS as served (the provider's, never stored), which prerequisites may name. */
  apex: { SOA: string[]; NS: string[] };
}

/** The prerequisite rcodes of RFC 2136 §3.2.5. */
type PrerequisiteRcode = 'YXDOMAIN' | 'NXDOMAIN' | 'YXRRSET' | 'NXRRSET';
export type DnsUpdateResult = { outcome: 'applied'; records: DnsRecord[] } | { outcome: 'unchanged' } | { outcome: 'prerequisite'; rcode: PrerequisiteRcode; failed: string };

/** A record as the message sees the zone: stored (with its id), added by this message, or the provider's. */
interface Entry {
  id?: string;
  name: string;
  type: string;
  ttl: number;
  rdata: string;
  /** Who serves it, when it is not the owner's: the provider (SOA, apex NS) or a setting. */
  managedBy?: ManagedBy | 'provider';
}

/** Types whose data is names: compared without letter case, as DNS compares names. */
const NAME_DATA = new Set(['CNAME', 'NS', 'PTR', 'MX', 'SRV', 'ALIAS']);
const sameData = (type: string, a: string, b: string) => (NAME_DATA.has(type) ? a.toLowerCase() === b.toLowerCase() : a === b);
const at = (e: Entry, name: string, type?: string) => e.name === name && (type === undefined || e.type === type);

export function dnsUpdateCommand(zoneName: string, update: DnsUpdate): ZoneCommand<DnsUpdateResult> {
  return {
    async apply(tx, zone, context) {
      const entries = await entriesAt(tx, zoneName, update, context.managed);
      const failed = failedPrerequisite(update.prerequisites, entries);
      if (failed) return { result: failed, facts: null };
      const after = applyOperations(zoneName, entries, update.operations);
      const change = differences(entries, after);
      if (change.creates.length === 0 && change.updates.length === 0 && change.deletes.length === 0) return { result: { outcome: 'unchanged' }, facts: null };
      const checked = checkRecords(zoneName, change, 'changes');
      const written = await recordsCommand(checked).apply(tx, zone, context);
      return { ...written, result: { outcome: 'applied', records: written.result } };
    },
  };
}

/** The records at every name the message names, under the zone's lock: stored, managed and the provider's apex. */
async function entriesAt(tx: Queryable, zoneName: string, update: DnsUpdate, settings: Parameters<typeof managedRecords>[2]): Promise<Entry[]> {
  const names = new Set([...update.prerequisites.map((p) => p.name), ...update.operations.map((o) => o.name)]);
  const { zone, records } = await readZoneState(tx, zoneName, names, []);
  // An ALIAS's addresses are served at its name: read only where an ALIAS is.
  const aliased = records.filter((r) => r.type === 'ALIAS').map((r) => r.name);
  const flattened =
    aliased.length === 0 ? [] : await tx.query<{ name: string; type: string; ttl: number; rdata: string }>('SELECT name, type, ttl, rdata FROM alias_addresses WHERE zone_name = $1 AND name = ANY($2::text[])', [zoneName, aliased]);
  const managed = managedRecords(zoneName, zone, settings).filter((r) => names.has(r.name));
  return [
    ...records.map((r) => ({ id: r.id, name: r.name, type: r.type, ttl: r.ttl, rdata: r.rdata })),
    ...managed.map((r) => ({ name: r.name, type: r.type, ttl: r.ttl, rdata: r.rdata, managedBy: r.managedBy })),
    ...flattened.map((r) => ({ ...r, managedBy: 'alias' as const })),
    ...update.apex.SOA.map((rdata) => ({ name: '@', type: 'SOA', ttl: 0, rdata, managedBy: 'provider' as const })),
    ...update.apex.NS.map((rdata) => ({ name: '@', type: 'NS', ttl: 0, rdata, managedBy: 'provider' as const })),
  ];
}

/** The first prerequisite that does not hold, with its rcode (RFC 2136 §3.2.5), or null. An ALIAS is not seen on the wire. */
function failedPrerequisite(prerequisites: Prerequisite[], entries: Entry[]): DnsUpdateResult | null {
  const seen = entries.filter((e) => e.type !== 'ALIAS');
  for (const p of prerequisites) {
    const set = seen.filter((e) => at(e, p.name, 'type' in p ? p.type : undefined));
    const fail = (rcode: PrerequisiteRcode, words: string) => ({ outcome: 'prerequisite' as const, rcode, failed: `${p.name} ${words}` });
    if (p.kind === 'nameInUse' && set.length === 0) return fail('NXDOMAIN', 'has no records');
    if (p.kind === 'nameNotInUse' && set.length > 0) return fail('YXDOMAIN', 'has records');
    if (p.kind === 'rrsetExists' && set.length === 0) return fail('NXRRSET', `has no ${p.type} records`);
    if (p.kind === 'rrsetNotExists' && set.length > 0) return fail('YXRRSET', `has ${p.type} records`);
    if (p.kind === 'rrsetEquals') {
      const wanted = [...new Set(p.rdatas)];
      const equal = wanted.length === new Set(set.map((e) => e.rdata)).size && wanted.every((r) => set.some((e) => sameData(p.type, e.rdata, r)));
      if (!equal) return fail('NXRRSET', `does not hold exactly these ${p.type} records`);
    }
  }
  return null;
}

/** A refusal of an update that would add or remove the provider's records: what the zone rules say of them. */
function refuseProvider(zoneName: string, entry: Pick<Entry, 'name' | 'type' | 'rdata' | 'managedBy'>, what: 'added' | 'deleted'): never {
  const where = fullName(entry.name, zoneName);
  if (entry.managedBy === 'provider' || entry.type === 'SOA' || (entry.type === 'NS' && entry.name === '@')) {
    const message = `The ${entry.type} records at ${where} belong to the DNS provider and cannot be ${what}`;
    throw invalidInput({}, { formErrors: [message], rule: 'DNS_APEX_NS_SOA', message });
  }
  const message = managedRecordMessage({ ...entry, type: entry.type as RecordType, ttl: 0, managedBy: entry.managedBy }, zoneName, what === 'added' ? 'changed' : 'deleted');
  throw invalidInput({}, { formErrors: [message], rule: 'DNS_MANAGED_RECORD', message });
}

const isProviderSet = (name: string, type: string) => type === 'SOA' || (type === 'NS' && name === '@');

/** The updates in order (RFC 2136 §3.4.2) on a copy of the entries: the records as they would stand. */
function applyOperations(zoneName: string, entries: Entry[], operations: UpdateOperation[]): Entry[] {
  let state = entries.map((e) => ({ ...e }));
  for (const op of operations) {
    if (op.kind === 'add') {
      if (isProviderSet(op.name, op.type)) refuseProvider(zoneName, op, 'added');
      // A CNAME added where one is replaces it (RFC 2136 §3.4.2.2); the zone rules refuse a CNAME beside other data.
      if (op.type === 'CNAME') state = state.filter((e) => !at(e, op.name, 'CNAME') || e.managedBy || sameData('CNAME', e.rdata, op.rdata));
      const same = state.find((e) => at(e, op.name, op.type) && sameData(op.type, e.rdata, op.rdata));
      if (same?.managedBy) refuseProvider(zoneName, same, 'added');
      // An RRset has one TTL (RFC 2181 §5.2): the one added last sets it for the whole set.
      for (const e of state) if (at(e, op.name, op.type) && !e.managedBy) e.ttl = op.ttl;
      if (!same) state.push({ name: op.name, type: op.type, ttl: op.ttl, rdata: op.rdata });
    } else if (op.kind === 'deleteRrset') {
      if (isProviderSet(op.name, op.type)) refuseProvider(zoneName, { ...op, rdata: '' }, 'deleted');
      const managed = state.find((e) => at(e, op.name, op.type) && e.managedBy);
      if (managed) refuseProvider(zoneName, managed, 'deleted');
      state = state.filter((e) => !at(e, op.name, op.type));
    } else if (op.kind === 'deleteName') {
      // The SOA, the apex NS, DNSSEC's records and an ALIAS's addresses stay (RFC 2136 §3.4.2.3); parking's or the forwarder's are refused.
      const held = state.find((e) => at(e, op.name) && e.managedBy && !['provider', 'dnssec', 'alias'].includes(e.managedBy));
      if (held) refuseProvider(zoneName, held, 'deleted');
      state = state.filter((e) => !at(e, op.name) || e.managedBy);
    } else {
      if (isProviderSet(op.name, op.type)) refuseProvider(zoneName, op, 'deleted');
      const gone = state.find((e) => at(e, op.name, op.type) && sameData(op.type, e.rdata, op.rdata));
      if (gone?.managedBy) refuseProvider(zoneName, gone, 'deleted');
      state = state.filter((e) => e !== gone);
    }
  }
  return state;
}

/** What the message changes, as a records change: new records, stored ones whose TTL moved, stored ones gone. */
function differences(before: Entry[], after: Entry[]): { creates: RecordLike[]; updates: Array<{ id: string; ttl: number }>; deletes: string[] } {
  const kept = new Map(after.filter((e) => e.id).map((e) => [e.id!, e]));
  const creates = after.filter((e) => !e.id && !e.managedBy).map((e) => ({ name: e.name, type: e.type as RecordType, ttl: e.ttl, rdata: e.rdata }));
  const updates = before.filter((e) => e.id && kept.has(e.id) && kept.get(e.id)!.ttl !== e.ttl).map((e) => ({ id: e.id!, ttl: kept.get(e.id!)!.ttl }));
  const deletes = before.filter((e) => e.id && !kept.has(e.id)).map((e) => e.id!);
  return { creates, updates, deletes };
}
