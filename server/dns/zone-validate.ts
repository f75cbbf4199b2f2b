import { fullName, relativeName, validateRecordName } from '#core/dns/names.ts';
import { validateRdata } from '#core/dns/rdata.ts';
import { nonAsciiRdataProblem } from '#core/dns/ascii-only.ts';
import { isAsciiText, NOT_ASCII_MESSAGE } from '#core/wire/text.ts';
import { MAX_NAME_LENGTH, type ListedRecordLike, type RecordLike, type Result } from '#core/dns/types.ts';
import { checkZoneChange, managedRecordMessage, type ZoneViolation } from '#core/dns/zone-rules.ts';
import type { RecordType } from '#core/wire/dns.ts';
import type { ZoneRule } from '#core/wire/errors.ts';
import { invalidInput } from '../domain-errors.ts';

/**
 * The record and zone rules of a zone write, each run once per request. The route's input schema has checked the
 * shape already (ASCII, lengths, control characters, TTL range); here are the per-type rules, in the contract's
 * order: the records on their own before anything is looked up (checkRecords), then, inside the write's
 * transaction, what needs the stored zone (refuseManaged, mergeUpdates, checkRules). A field checked early is
 * carried forward in its stored form, never checked again.
 */

const DEFAULT_TTL = 3600;
const DEFAULT_NAME = '@';

interface RecordCreate {
  name?: string;
  type: RecordType;
  rdata: string;
  ttl?: number;
  comment?: string;
  tags?: string[];
}
/** A partial update: absent fields keep their stored value. */
interface RecordUpdate {
  id: string;
  type?: RecordType;
  name?: string;
  rdata?: string;
  ttl?: number;
  comment?: string;
  tags?: string[];
}
export interface ZoneChangeRequest {
  creates?: RecordCreate[];
  updates?: RecordUpdate[];
  deletes?: string[];
}

/** A change whose records passed the rules they can pass on their own: the only input a zone write takes. */
export interface CheckedChange {
  zoneName: string;
  /** New records in their stored forms. */
  creates: RecordLike[];
  updates: RecordUpdate[];
  /** Per update, the fields it names that are checked already, in their stored forms. */
  checkedUpdates: Array<{ name?: string; rdata?: string }>;
  deletes: string[];
  paths: RecordPaths;
}

type RecordPaths = ReturnType<typeof recordPaths>;

/**
 * Where a record's errors land: `records` (the default) gives `records.2.rdata`; '' is a single-record
 * operation, whose paths are the plain field (`rdata`, `id`). Deleted ids of a batch land on `recordsIds.N`.
 * `changes` is a mixed change set (applyDnsChanges): `creates.N.field`, `updates.N.field` and `deletes.N`.
 */
function recordPaths(pathPrefix = 'records') {
  const single = pathPrefix === '';
  const mixed = pathPrefix === 'changes';
  const record = (list: string) => (index: number, field?: string): string | null =>
    single ? (field ?? null) : field ? `${list}.${index}.${field}` : `${list}.${index}`;
  return {
    create: record(mixed ? 'creates' : pathPrefix),
    update: record(mixed ? 'updates' : pathPrefix),
    delete: (index: number): string => (single ? 'id' : mixed ? `deletes.${index}` : `recordsIds.${index}`),
  };
}

class Problems {
  fieldErrors: Record<string, string[]> = {};
  formErrors: string[] = [];
  rule?: ZoneRule;
  message?: string;
  add(path: string | null, message: string, rule?: ZoneRule) {
    if (path === null) this.formErrors.push(message);
    else (this.fieldErrors[path] ??= []).push(message);
    if (this.message === undefined) {
      this.message = message;
      this.rule = rule;
    }
  }
  /** Throws the 400 when anything was added. */
  raiseAny(): void {
    if (this.message !== undefined) throw invalidInput(this.fieldErrors, { formErrors: this.formErrors, rule: this.rule, message: this.message });
  }
}

/** A record name in its stored form, or the problem with it. */
function checkName(zoneName: string, name: string, problems: Problems, path: string | null): string {
  // The core validators turn Unicode into A-labels for the dashboard; the service stores only what was sent.
  const checked = isAsciiText(name) ? validateRecordName(name, zoneName) : ({ ok: false, message: NOT_ASCII_MESSAGE } as const);
  if (checked.ok) return checked.value;
  const tooLong = fullName(relativeName(name, zoneName), zoneName).length > MAX_NAME_LENGTH;
  problems.add(path, checked.message, tooLong ? 'DNS_NAME_TOO_LONG' : undefined);
  return name;
}

/** Record data in its stored form, or the problem with it. */
function checkData(type: RecordType, rdata: string, problems: Problems, path: string | null): string {
  const unicode = nonAsciiRdataProblem(type, rdata);
  const checked: Result<string> = unicode ? { ok: false, message: unicode } : validateRdata(type, rdata);
  if (checked.ok) return checked.value;
  problems.add(path, checked.message, checked.rule);
  return rdata;
}

/**
 * The rules a request's records pass on their own, before anything is looked up (the contract's order: input,
 * then ownership, then ids, then zone rules): new records in full, and of an update what it names (its name, and
 * its data when it names the type too; the rest needs the stored record, see mergeUpdates).
 */
export function checkRecords(zoneName: string, request: ZoneChangeRequest, pathPrefix = 'records'): CheckedChange {
  const paths = recordPaths(pathPrefix);
  const problems = new Problems();
  const updates = request.updates ?? [];
  const creates = (request.creates ?? []).map((c, index) => {
    const name = checkName(zoneName, c.name ?? DEFAULT_NAME, problems, paths.create(index, 'name'));
    const rdata = checkData(c.type, c.rdata, problems, paths.create(index, 'rdata'));
    return { name, type: c.type, rdata, ttl: c.ttl ?? DEFAULT_TTL, comment: c.comment ?? '', tags: c.tags ?? [] };
  });
  const checkedUpdates = updates.map((u, index) => ({
    name: u.name === undefined ? undefined : checkName(zoneName, u.name, problems, paths.update(index, 'name')),
    rdata: u.type === undefined || u.rdata === undefined ? undefined : checkData(u.type, u.rdata, problems, paths.update(index, 'rdata')),
  }));
  problems.raiseAny();
  return { zoneName, creates, updates, checkedUpdates, deletes: request.deletes ?? [], paths };
}

/** Managed records are read-only (parking's, the forwarder's, DNSSEC's): naming one in an update or a delete is refused. */
export function refuseManaged(change: CheckedChange, managedById: Map<string, ListedRecordLike>): void {
  const problems = new Problems();
  const message = (record: ListedRecordLike, what: 'changed' | 'deleted') => managedRecordMessage(record, change.zoneName, what);
  change.updates.forEach((u, index) => {
    const record = managedById.get(u.id);
    if (record) problems.add(change.paths.update(index, 'id'), message(record, 'changed'), 'DNS_MANAGED_RECORD');
  });
  change.deletes.forEach((id, index) => {
    const record = managedById.get(id);
    if (record) problems.add(change.paths.delete(index), message(record, 'deleted'), 'DNS_MANAGED_RECORD');
  });
  problems.raiseAny();
}

/**
 * Each update merged onto its stored record, as the record will stand: one record changes once per request, and
 * the fields checkRecords could not check (a stored name, data under a type from the other side) are checked here.
 */
export function mergeUpdates(change: CheckedChange, storedById: Map<string, RecordLike>): Array<RecordLike & { id: string }> {
  const { zoneName, paths } = change;
  const problems = new Problems();
  const firstUpdate = new Map<string, number>();
  change.updates.forEach((u, index) => {
    const first = firstUpdate.get(u.id);
    if (first === undefined) firstUpdate.set(u.id, index);
    else problems.add(paths.update(index, 'id'), `This record is already changed by ${paths.update(first) ?? 'this request'}: change it once`);
  });
  problems.raiseAny();
  const updated = change.updates.map((u, index) => {
    const stored = storedById.get(u.id)!;
    const checked = change.checkedUpdates[index];
    const type = u.type ?? stored.type;
    const name = checked.name ?? checkName(zoneName, stored.name, problems, paths.update(index, 'name'));
    const rdata = checked.rdata ?? checkData(type, u.rdata ?? stored.rdata, problems, paths.update(index, 'rdata'));
    return { id: u.id, name, type, rdata, ttl: u.ttl ?? stored.ttl, comment: u.comment ?? stored.comment ?? '', tags: u.tags ?? stored.tags ?? [] };
  });
  problems.raiseAny();
  return updated;
}

/** The zone rules on the zone as it would stand: `existing` holds every stored and managed record they can weigh. */
export function checkRules(change: CheckedChange, zone: { existing: RecordLike[]; parked: boolean; forwarding: boolean; updated: Array<RecordLike & { id: string }> }): void {
  const { paths } = change;
  const violations = checkZoneChange({
    zoneName: change.zoneName,
    existing: zone.existing,
    change: { creates: change.creates, updates: zone.updated, deletes: change.deletes },
    parked: zone.parked,
    forwarding: zone.forwarding,
  });
  const problems = new Problems();
  // A rule without a field of its own (parking) is about where the record sits: its name.
  const pathOf = (v: ZoneViolation) => (v.target.kind === 'delete' ? paths.delete(v.target.index) : (v.target.kind === 'create' ? paths.create : paths.update)(v.target.index, v.field ?? 'name'));
  for (const v of violations) problems.add(pathOf(v), v.message, v.rule);
  problems.raiseAny();
}
