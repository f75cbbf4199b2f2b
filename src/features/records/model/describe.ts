import { fullName } from '#core/dns/names.ts';
import { txtFromWire } from '#core/dns/rdata.ts';
import { ttlInWords } from '#core/dns/ttl.ts';
import type { Batch } from './change-set.ts';

const MAX_CONTENT = 60;

/** Quoted strings without escapes, the usual TXT form: read without the full tokenizer (a big zone has thousands). */
const PLAIN_STRINGS = /^"[^"\\]*"(\s+"[^"\\]*")*$/;

function txtText(rdata: string): string {
  if (!PLAIN_STRINGS.test(rdata)) return txtFromWire(rdata);
  return rdata.split(/"\s+"/).join('').slice(1, -1);
}

/** Record data as a person reads it in one line: TXT unquoted, long values shortened. */
export function contentInWords(type: string, rdata: string): string {
  const text = type === 'TXT' || type === 'SPF' ? txtText(rdata) : rdata;
  return text.length > MAX_CONTENT ? `${text.slice(0, MAX_CONTENT - 1)}…` : text;
}

export function recordInWords(record: { name: string; type: string; rdata: string }, zoneName: string): string {
  return `${record.type} ${fullName(record.name, zoneName)} → ${contentInWords(record.type, record.rdata)}`;
}

/** An edit in words: the record as it will stand, its TTL, and the notes it signs (record-notes.ts), when it signs any. */
function editInWords(record: { name: string; type: string; rdata: string; ttl: number; comment?: string; tags?: string[] }, zoneName: string): string {
  const notes = [
    record.comment !== undefined ? (record.comment ? `comment “${record.comment}”` : 'no comment') : '',
    record.tags !== undefined ? (record.tags.length > 0 ? `tags ${record.tags.join(', ')}` : 'no tags') : '',
  ].filter(Boolean);
  return `${recordInWords(record, zoneName)}, TTL ${ttlInWords(record.ttl)}${notes.length > 0 ? `, ${notes.join(', ')}` : ''}`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a batch envelope will do, in words, for the notice shown before the wallet opens. */
export function batchInWords(batch: Batch, zoneName: string, describeId: (id: string) => string): string[] {
  switch (batch.kind) {
    case 'delete':
      return [`Delete ${plural(batch.payload.recordsIds.length, 'record', 'records')} from ${zoneName}:`, ...batch.payload.recordsIds.map((id) => `− ${describeId(id)}`)];
    case 'update':
      return [`Change ${plural(batch.payload.records.length, 'record', 'records')} in ${zoneName}:`, ...batch.payload.records.map((r) => `~ ${editInWords(r, zoneName)}`)];
    case 'retype':
      return [`Change the type of a record in ${zoneName}:`, `− ${describeId(batch.id)}`, `+ ${recordInWords(batch.payload, zoneName)}`];
    case 'create':
      return [`Add ${plural(batch.payload.records.length, 'record', 'records')} to ${zoneName}:`, ...batch.payload.records.map((r) => `+ ${recordInWords(r, zoneName)}`)];
    case 'create-one':
      return [`Add one record to ${zoneName}: ${recordInWords(batch.payload, zoneName)}`];
    case 'update-one':
      return [`Change one record in ${zoneName}: ${editInWords(batch.payload, zoneName)}`];
    case 'delete-one':
      return [`Delete one record from ${zoneName}: ${describeId(batch.id)}`];
    case 'all':
      return [
        `Apply ${plural(batch.keys.length, 'change', 'changes')} to ${zoneName} as one, all or nothing:`,
        ...batch.payload.deletes.map((id) => `− ${describeId(id)}`),
        ...batch.payload.updates.map((r) => `~ ${recordInWords(r, zoneName)}`),
        ...batch.payload.creates.map((r) => `+ ${recordInWords(r, zoneName)}`),
      ];
  }
}

/** Long lists are cut for the notice; the diff above it shows everything. */
export function capLines(lines: string[], max = 12, what = 'more'): string[] {
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max - 1), `… and ${lines.length - (max - 1)} ${what}`];
}
