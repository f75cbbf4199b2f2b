import { MAX_TAGS, notesOf, tagProblem } from '#core/dns/record-notes.ts';
import { isStoredRecord, type DnsRecord } from '#core/wire/dns.ts';
import { addDelete, setUpdate, type Draft } from './change-set.ts';
import type { RecordInput } from './record-form.ts';

/**
 * Changes to many selected records at once, made as one change set: every edit one item of the draft, so applying it
 * is one batch per kind, one signature each (change-set.ts). Managed records are never selected.
 */

/** The records a selection names that a person may change (stored, not managed), in the zone's order. */
export function selectedRecords(zone: DnsRecord[], selected: ReadonlySet<string>): DnsRecord[] {
  return zone.filter((r) => selected.has(r.id) && isStoredRecord(r));
}

const asInput = (record: DnsRecord): RecordInput => ({ name: record.name, type: record.type as RecordInput['type'], rdata: record.rdata, ttl: record.ttl, ...notesOf(record) });

export function bulkTtl(draft: Draft, records: DnsRecord[], ttl: number): Draft {
  return records.reduce((d, r) => setUpdate(d, r, { ...asInput(r), ttl }), draft);
}

/** Adds `tag` to each record that lacks it; why it cannot, when the tag or a record's count refuses it. */
export function bulkAddTag(draft: Draft, records: DnsRecord[], tag: string): { draft: Draft } | { problem: string } {
  const problem = tagProblem(tag);
  if (problem) return { problem };
  const full = records.find((r) => !notesOf(r).tags.includes(tag) && notesOf(r).tags.length >= MAX_TAGS);
  if (full) return { problem: `${full.name} ${full.type} has ${MAX_TAGS} tags already, the most a record keeps` };
  return { draft: records.reduce((d, r) => (notesOf(r).tags.includes(tag) ? d : setUpdate(d, r, { ...asInput(r), tags: [...notesOf(r).tags, tag] })), draft) };
}

export function bulkRemoveTag(draft: Draft, records: DnsRecord[], tag: string): Draft {
  return records.reduce((d, r) => (notesOf(r).tags.includes(tag) ? setUpdate(d, r, { ...asInput(r), tags: notesOf(r).tags.filter((t) => t !== tag) }) : d), draft);
}

export function bulkDelete(draft: Draft, records: DnsRecord[]): Draft {
  return records.reduce((d, r) => addDelete(d, r.id), draft);
}
