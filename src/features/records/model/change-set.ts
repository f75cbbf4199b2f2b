import { z } from 'zod';
import { managedWords } from '#core/dns/managed.ts';
import { isManaged, managedByOf, MAX_BATCH, recordType, type DnsRecord } from '#core/wire/dns.ts';
import { notesDiffer, notesOf } from '#core/dns/record-notes.ts';
import type { RecordInput } from './record-form.ts';

/**
 * A change set (draft): additions, edits and deletions gathered before one signature per kind. Every item has a
 * key so the UI, the plan and the service's field errors ('records.2.rdata') can point at it.
 */
const recordInput = z.object({ name: z.string(), type: recordType, rdata: z.string(), ttl: z.number(), comment: z.string().optional(), tags: z.array(z.string()).optional() });
const itemError = z.string().optional();
export const draftSchema = z.object({
  creates: z.array(z.object({ key: z.string(), record: recordInput, error: itemError })),
  updates: z.array(z.object({ key: z.string(), id: z.string(), record: recordInput, error: itemError })),
  deletes: z.array(z.object({ key: z.string(), id: z.string(), error: itemError })),
});
export type Draft = z.infer<typeof draftSchema>;

export const EMPTY_DRAFT: Draft = { creates: [], updates: [], deletes: [] };

export function draftSize(draft: Draft): number {
  return draft.creates.length + draft.updates.length + draft.deletes.length;
}

let counter = 0;
function newKey(): string {
  counter += 1;
  const random = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${counter}`;
  return `c:${random}`;
}

/** What makes two records the same record: a listed one (any type) compares with an input. */
type RecordText = { name: string; type: string; rdata: string };

function sameRecord(a: RecordText, b: RecordText): boolean {
  return a.name === b.name && a.type === b.type && a.rdata === b.rdata;
}

/** An edit that leaves the record as the zone holds it: same record, TTL and notes (notes the edit does not name stay). */
function unchangedBy(current: DnsRecord, record: RecordInput): boolean {
  return sameRecord(current, record) && current.ttl === record.ttl && !notesDiffer(current, notesAfter(current, record));
}
const definedNotes = (record: RecordInput) => ({ ...(record.comment !== undefined ? { comment: record.comment } : {}), ...(record.tags !== undefined ? { tags: record.tags } : {}) });
/**
 * A batch's records signed with notes in all or none (a struct is one for every record): when one names notes, each
 * other gets `fill` (none for an addition, the stored ones for an edit); when none does, they go without, and an edit
 * keeps the stored notes.
 */
function withNotesInAll<R extends RecordInput>(records: R[], fill: (record: R) => { comment: string; tags: string[] }): R[] {
  if (!records.some((r) => r.comment !== undefined || r.tags !== undefined)) return records;
  return records.map((r) => ({ ...r, ...fill(r) }));
}

/** The notes an edit leaves: the ones it names, the stored ones for the rest. */
const notesAfter = (current: Pick<DnsRecord, 'comment' | 'tags'>, record: RecordInput) => ({ ...notesOf(current), ...definedNotes(record) });

/** One string per record as sameRecord sees it: a Set or Map of these finds a record among 100,000 at once. */
export function recordIdentity(r: RecordText): string {
  return `${r.name}\u0000${r.type}\u0000${r.rdata}`;
}

export function addCreate(draft: Draft, record: RecordInput): Draft {
  if (draft.creates.some((c) => sameRecord(c.record, record))) return draft;
  return { ...draft, creates: [...draft.creates, { key: newKey(), record }] };
}

/** addCreate for many at once, in one pass (a 100,000-record import is not 100,000 copies of the draft). */
export function addCreates(draft: Draft, records: RecordInput[]): Draft {
  const seen = new Set(draft.creates.map((c) => recordIdentity(c.record)));
  const added: Draft['creates'] = [];
  for (const record of records) {
    const identity = recordIdentity(record);
    if (seen.has(identity)) continue;
    seen.add(identity);
    added.push({ key: newKey(), record });
  }
  return added.length === 0 ? draft : { ...draft, creates: [...draft.creates, ...added] };
}

/** Edits a stored record; editing it back to what the zone holds drops the edit. */
export function setUpdate(draft: Draft, current: DnsRecord, record: RecordInput): Draft {
  const updates = draft.updates.filter((u) => u.id !== current.id);
  const deletes = draft.deletes.filter((d) => d.id !== current.id);
  const unchanged = unchangedBy(current, record);
  return { ...draft, deletes, updates: unchanged ? updates : [...updates, { key: `u:${current.id}`, id: current.id, record }] };
}

/** Replaces a pending addition's record (editing a row that is not in the zone yet). */
export function replaceCreate(draft: Draft, key: string, record: RecordInput): Draft {
  return { ...draft, creates: draft.creates.map((c) => (c.key === key ? { key, record } : c)) };
}

export function addDelete(draft: Draft, id: string): Draft {
  if (draft.deletes.some((d) => d.id === id)) return draft;
  return { ...draft, updates: draft.updates.filter((u) => u.id !== id), deletes: [...draft.deletes, { key: `d:${id}`, id }] };
}

export function removeItem(draft: Draft, key: string): Draft {
  return {
    creates: draft.creates.filter((c) => c.key !== key),
    updates: draft.updates.filter((u) => u.key !== key),
    deletes: draft.deletes.filter((d) => d.key !== key),
  };
}

export type DiffEntry =
  | { kind: 'add'; key: string; after: RecordInput; note?: string; error?: string }
  | { kind: 'change'; key: string; id: string; before?: DnsRecord; after: RecordInput; note?: string; error?: string }
  | { kind: 'remove'; key: string; id: string; before?: DnsRecord; note?: string; error?: string };

/** The draft against the zone as it stands now, in the order it will be applied. */
export function diffDraft(draft: Draft, zone: DnsRecord[]): DiffEntry[] {
  const byId = new Map(zone.map((r) => [r.id, r]));
  const entries: DiffEntry[] = [];
  for (const d of draft.deletes) {
    const before = byId.get(d.id);
    entries.push({ kind: 'remove', key: d.key, id: d.id, before, error: d.error, note: before ? undefined : 'Already gone from the zone' });
  }
  for (const u of draft.updates) {
    const before = byId.get(u.id);
    const note = !before ? 'No longer in the zone' : unchangedBy(before, u.record) ? 'Same as the zone' : undefined;
    entries.push({ kind: 'change', key: u.key, id: u.id, before, after: u.record, error: u.error, note });
  }
  const kept = zone.filter((r) => !draft.deletes.some((d) => d.id === r.id));
  for (const c of draft.creates) {
    const exists = kept.some((r) => sameRecord(r, c.record));
    entries.push({ kind: 'add', key: c.key, after: c.record, error: c.error, note: exists ? 'Already in the zone' : undefined });
  }
  return entries;
}

export type Batch =
  | { kind: 'delete'; operationId: 'batchDeleteDnsRecords'; keys: string[]; payload: { zoneName: string; recordsIds: string[] } }
  | {
      kind: 'update';
      operationId: 'batchUpdateDnsRecords';
      keys: string[];
      payload: { zoneName: string; records: Array<RecordInput & { id: string }> };
    }
  | { kind: 'retype'; operationId: 'updateDnsRecord'; zoneName: string; keys: string[]; id: string; payload: RecordInput }
  | { kind: 'create'; operationId: 'batchCreateDnsRecords'; keys: string[]; payload: { zoneName: string; records: RecordInput[] } }
  // One record per signature: what a batch becomes where the service's batch type does not sign its records.
  | { kind: 'create-one'; operationId: 'createDnsRecord'; zoneName: string; keys: string[]; payload: RecordInput }
  | { kind: 'update-one'; operationId: 'updateDnsRecord'; zoneName: string; keys: string[]; id: string; payload: RecordInput }
  | { kind: 'delete-one'; operationId: 'deleteDnsRecord'; zoneName: string; keys: string[]; id: string }
  // The whole change set in one signature, where the service applies one as a whole (ours: applyDnsChanges).
  | {
      kind: 'all';
      operationId: 'applyDnsChanges';
      /** Every item's key; `lists` says which key sits at which place of the payload ('updates.2' → lists.updates[2]). */
      keys: string[];
      lists: { creates: string[]; updates: string[]; deletes: string[] };
      payload: { zoneName: string; creates: RecordInput[]; updates: Array<RecordInput & { id: string }>; deletes: string[] };
    };

export interface Plan {
  batches: Batch[];
  /** Items that need no request: already done, or no longer possible. The UI drops them from the draft. */
  skipped: Array<{ key: string; reason: string }>;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Plans the requests of a draft: one batch per kind (split only past the contract's 1,000 records per batch),
 * deletes first, then updates, then creates, so replacing an A record by a CNAME at the same name works.
 * An edit that changes a record's type is sent on its own, signed with its type: a batch update's struct
 * (UpdateZoneRecord) does not sign `type`, and the service refuses what is not signed.
 */
export function planBatches(draft: Draft, zone: DnsRecord[], zoneName: string): Plan {
  const byId = new Map(zone.map((r) => [r.id, r]));
  const skipped: Plan['skipped'] = [];
  const batches: Batch[] = [];

  const deletes = draft.deletes.filter((d) => {
    const current = byId.get(d.id);
    if (!current) skipped.push({ key: d.key, reason: 'Already gone from the zone' });
    else if (isManaged(current)) skipped.push({ key: d.key, reason: `Managed by ${managedWords(managedByOf(current)).by}: it cannot be deleted here` });
    else return true;
    return false;
  });
  for (const part of chunks(deletes, MAX_BATCH)) {
    batches.push({ kind: 'delete', operationId: 'batchDeleteDnsRecords', keys: part.map((d) => d.key), payload: { zoneName, recordsIds: part.map((d) => d.id) } });
  }

  const updates = draft.updates.filter((u) => {
    const current = byId.get(u.id);
    if (!current) skipped.push({ key: u.key, reason: 'No longer in the zone' });
    else if (isManaged(current)) skipped.push({ key: u.key, reason: `Managed by ${managedWords(managedByOf(current)).by}: it cannot be edited here` });
    else if (unchangedBy(current, u.record)) skipped.push({ key: u.key, reason: 'Same as the zone' });
    else return true;
    return false;
  });
  const retyped = updates.filter((u) => byId.get(u.id)?.type !== u.record.type);
  for (const part of chunks(updates.filter((u) => !retyped.includes(u)), MAX_BATCH)) {
    batches.push({
      kind: 'update',
      operationId: 'batchUpdateDnsRecords',
      keys: part.map((u) => u.key),
      // Every record carries its notes (the stored ones where the edit names none), so a batch signs them in all or none.
      payload: { zoneName, records: withNotesInAll(part.map((u) => ({ id: u.id, ...u.record })), (r) => notesAfter(byId.get(r.id)!, r)) },
    });
  }
  for (const u of retyped) batches.push({ kind: 'retype', operationId: 'updateDnsRecord', zoneName, keys: [u.key], id: u.id, payload: withNotesInAll([u.record], (r) => notesAfter(byId.get(u.id)!, r))[0] });

  const deleted = new Set(deletes.map((d) => d.id));
  const kept = zone.filter((r) => !deleted.has(r.id));
  const creates = draft.creates.filter((c) => {
    if (kept.some((r) => sameRecord(r, c.record))) {
      skipped.push({ key: c.key, reason: 'Already in the zone' });
      return false;
    }
    return true;
  });
  for (const part of chunks(creates, MAX_BATCH)) {
    batches.push({ kind: 'create', operationId: 'batchCreateDnsRecords', keys: part.map((c) => c.key), payload: { zoneName, records: withNotesInAll(part.map((c) => c.record), notesOf) } });
  }
  return { batches, skipped };
}

/**
 * The plan's batches as one write (deletes, changes, type changes and additions together), or null where there is
 * nothing to gain (one batch already) or the set is larger than one request may be.
 */
export function asOneWrite(plan: Plan, zoneName: string, zone: DnsRecord[] = []): Extract<Batch, { kind: 'all' }> | null {
  if (plan.batches.length < 2) return null;
  const whole: Extract<Batch, { kind: 'all' }> = {
    kind: 'all',
    operationId: 'applyDnsChanges',
    keys: [],
    lists: { creates: [], updates: [], deletes: [] },
    payload: { zoneName, creates: [], updates: [], deletes: [] },
  };
  for (const batch of plan.batches) {
    if (batch.kind === 'delete') {
      whole.payload.deletes.push(...batch.payload.recordsIds);
      whole.lists.deletes.push(...batch.keys);
    } else if (batch.kind === 'update') {
      whole.payload.updates.push(...batch.payload.records);
      whole.lists.updates.push(...batch.keys);
    } else if (batch.kind === 'retype') {
      whole.payload.updates.push({ id: batch.id, ...batch.payload });
      whole.lists.updates.push(...batch.keys);
    } else if (batch.kind === 'create') {
      whole.payload.creates.push(...batch.payload.records);
      whole.lists.creates.push(...batch.keys);
    } else return null;
  }
  // Notes are signed in all the records or none: where one batch carries them, each record gets its own (none for an
  // addition, the stored ones for an edit that names none), as within one batch.
  const byId = new Map(zone.map((r) => [r.id, r]));
  whole.payload.updates = withNotesInAll(whole.payload.updates, (r) => notesAfter(byId.get(r.id) ?? {}, r));
  whole.payload.creates = withNotesInAll(whole.payload.creates, notesOf);
  if (whole.payload.updates.some((u) => u.comment !== undefined) && !whole.payload.creates.every((c) => c.comment !== undefined)) {
    whole.payload.creates = whole.payload.creates.map((c) => ({ ...c, ...notesOf(c) }));
  }
  if (whole.payload.creates.some((c) => c.comment !== undefined) && !whole.payload.updates.every((u) => u.comment !== undefined)) {
    whole.payload.updates = whole.payload.updates.map((u) => ({ ...u, ...notesAfter(byId.get(u.id) ?? {}, u) }));
  }
  whole.keys = [...whole.lists.deletes, ...whole.lists.updates, ...whole.lists.creates];
  return whole.keys.length > MAX_BATCH ? null : whole;
}

/** The item a field error's path names: 'records.2.rdata' or 'recordsIds.0' in a batch, 'updates.1.ttl' in a whole change set. */
function keyAt(batch: Batch, path: string): string | undefined {
  if (batch.kind === 'all') {
    const match = /^(creates|updates|deletes)\.(\d+)/.exec(path);
    return match ? batch.lists[match[1] as keyof typeof batch.lists][Number(match[2])] : undefined;
  }
  const match = /^(?:records|recordsIds)\.(\d+)/.exec(path);
  return match ? batch.keys[Number(match[1])] : undefined;
}

export type BatchOutcome = { ok: true } | { ok: false; message: string; fieldErrors?: Record<string, string[]> };

/**
 * The draft after one batch: a landed batch leaves it; a refused one stays whole (a batch is all or nothing),
 * each item with the reason, the service's per-record errors ('records.2.rdata', 'recordsIds.0') on their item.
 */
export function settleBatch(draft: Draft, batch: Batch, outcome: BatchOutcome): Draft {
  const keys = new Set(batch.keys);
  if (outcome.ok) {
    return {
      creates: draft.creates.filter((c) => !keys.has(c.key)),
      updates: draft.updates.filter((u) => !keys.has(u.key)),
      deletes: draft.deletes.filter((d) => !keys.has(d.key)),
    };
  }
  const perItem = new Map<string, string>();
  for (const [path, messages] of Object.entries(outcome.fieldErrors ?? {})) {
    const key = keyAt(batch, path);
    if (key) perItem.set(key, [perItem.get(key), messages.join(' ')].filter(Boolean).join(' '));
  }
  const reason = (key: string) => perItem.get(key) ?? (perItem.size > 0 ? `Not applied: ${outcome.message}` : outcome.message);
  const mark = <T extends { key: string; error?: string }>(item: T): T => (keys.has(item.key) ? { ...item, error: reason(item.key) } : item);
  return { creates: draft.creates.map(mark), updates: draft.updates.map(mark), deletes: draft.deletes.map(mark) };
}

export function dropKeys(draft: Draft, keys: string[]): Draft {
  return keys.reduce(removeItem, draft);
}
