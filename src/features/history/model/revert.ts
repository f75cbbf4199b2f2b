import { notesDiffer, notesOf } from '#core/dns/record-notes.ts';
import type { DnsRecord, RecordType } from '#core/wire/dns.ts';
import type { HistoryEntry } from '#core/wire/history.ts';
import { addCreate, addDelete, setUpdate, type Draft, type RecordInput } from '@/features/records/index.ts';
import { storedById } from './zone-at.ts';

/** One step of putting a zone back: what to do, and what the zone holds now where it differs from what is expected. */
export type RevertStep =
  | { kind: 'create'; key: string; record: RecordInput; conflict?: string }
  | { kind: 'update'; key: string; id: string; current: DnsRecord; record: RecordInput; conflict?: string }
  | { kind: 'delete'; key: string; id: string; current: DnsRecord; conflict?: string };

/** How the person settles a conflict: put the historical version back anyway, or leave the record as it is now. */
export type Resolution = 'restore' | 'keep';

// The history holds stored records only, and the service stores no managed-only type (DNSKEY, CDS, CDNSKEY).
const input = (r: DnsRecord): RecordInput => ({ name: r.name, type: r.type as RecordType, rdata: r.rdata, ttl: r.ttl, ...notesOf(r) });
const same = (a: RecordInput, b: RecordInput) => a.name === b.name && a.type === b.type && a.rdata === b.rdata && a.ttl === b.ttl && !notesDiffer(a, b);
const words = (r: RecordInput) => `${r.name} ${r.type} ${r.rdata} (TTL ${r.ttl})`;

/**
 * The inverse of one entry against the zone as it is now: a creation is deleted, an update set back, a deletion
 * created again. Where the record changed again since the entry (edited, deleted, or already back), the step
 * carries a conflict in words, to be settled before anything is signed.
 */
export function revertSteps(entry: HistoryEntry, current: readonly DnsRecord[]): RevertStep[] {
  const zone = storedById(current);
  const steps: RevertStep[] = [];
  for (const change of entry.changes) {
    const key = `${change.op}:${(change.after ?? change.before)!.id}`;
    if (change.op === 'create') {
      const now = zone.get(change.after!.id);
      if (!now) continue; // Deleted since: nothing left to undo.
      const conflict = same(input(now), input(change.after!)) ? undefined : `changed since: it is now ${words(input(now))}`;
      steps.push({ kind: 'delete', key, id: now.id, current: now, conflict });
    } else if (change.op === 'update') {
      const now = zone.get(change.after!.id);
      const back = input(change.before!);
      if (!now) steps.push({ kind: 'create', key, record: back, conflict: 'deleted since: putting it back creates it again' });
      else if (!same(input(now), back)) {
        steps.push({ kind: 'update', key, id: now.id, current: now, record: back, conflict: same(input(now), input(change.after!)) ? undefined : `changed since: it is now ${words(input(now))}` });
      }
    } else {
      const back = input(change.before!);
      const again = [...zone.values()].some((r) => same(input(r), back));
      if (!again) steps.push({ kind: 'create', key, record: back });
    }
  }
  return steps;
}

/**
 * What changes turn the zone as it is now into `target` (a zone as it stood at an entry). A record deleted and
 * created again since (a new id, the same content) counts as the same record: nothing to do for it.
 */
export function restoreSteps(target: readonly DnsRecord[], current: readonly DnsRecord[]): RevertStep[] {
  const now = storedById(current);
  const wanted = storedById(target);
  const unmatchedNow = [...now.values()].filter((r) => !wanted.has(r.id));
  const unmatchedWanted = [...wanted.values()].filter((r) => !now.has(r.id));
  const steps: RevertStep[] = [];
  for (const record of now.values()) {
    const then = wanted.get(record.id);
    if (then && !same(input(then), input(record))) steps.push({ kind: 'update', key: `update:${record.id}`, id: record.id, current: record, record: input(then) });
  }
  for (const record of unmatchedNow) {
    const twin = unmatchedWanted.findIndex((r) => same(input(r), input(record)));
    if (twin >= 0) unmatchedWanted.splice(twin, 1);
    else steps.push({ kind: 'delete', key: `delete:${record.id}`, id: record.id, current: record });
  }
  for (const record of unmatchedWanted) steps.push({ kind: 'create', key: `create:${record.id}`, record: input(record) });
  return steps;
}

/** The steps as changes of the draft: a conflict the person chose to keep adds nothing. */
export function applySteps(draft: Draft, steps: readonly RevertStep[], resolutions: Readonly<Record<string, Resolution>>): Draft {
  let next = draft;
  for (const step of steps) {
    if (step.conflict && resolutions[step.key] !== 'restore') continue;
    if (step.kind === 'create') next = addCreate(next, step.record);
    else if (step.kind === 'update') next = setUpdate(next, step.current, step.record);
    else next = addDelete(next, step.id);
  }
  return next;
}

/** Whether every conflict has been settled one way or the other. */
export const allSettled = (steps: readonly RevertStep[], resolutions: Readonly<Record<string, Resolution>>) =>
  steps.every((s) => !s.conflict || resolutions[s.key] !== undefined);
