import { RECORD_TYPES } from '../wire/dns.ts';
import { managedWords } from './managed.ts';
import { fullName, normaliseZone } from './names.ts';
import { printNotes } from './record-notes.ts';
import type { ListedRecordLike } from './types.ts';
import { DEFAULT_IMPORT_TTL, readEntry, type ParsedRecord, type ReaderState } from './zone-file-entry.ts';
import { lex } from './zone-file-lex.ts';

export interface ParsedZoneFile {
  /**
   * Names relative to the origin ('@' = apex), record data in its stored form; the `;` comment on a record's line as
   * its comment and tags (record-notes.ts: `; text [tags: a, b]`), present only when the line has one.
   */
  records: ParsedRecord[];
  /** Lines understood but not imported: SOA, apex NS, other classes and types, names outside the zone. */
  skipped: Array<{ line: number; text: string; reason: string }>;
  /** Lines that could not be understood. */
  errors: Array<{ line: number; text: string; message: string }>;
  /** Records imported, but worth a look: a TTL unlike the rest of its set, a CAA tag outside the registry. */
  warnings: Array<{ line: number; text: string; message: string }>;
}

/**
 * Reads a BIND zone file (as exported by Cloudflare, Route 53 tools, GoDaddy, Namecheap and name servers) into
 * records for `options.origin`. Tolerant of $ORIGIN, $TTL, '@', blank owners, TTL units, an optional class,
 * comments and parentheses; what it cannot import it lists as skipped (with a reason) or errors (with a line).
 */
export function parseZoneFile(text: string, options: { origin: string; defaultTtl?: number }): ParsedZoneFile {
  const steps = parseZoneFileInSteps(text, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Entries read between two progress reports of parseZoneFileInSteps. */
const STEP_ENTRIES = 2000;

/**
 * parseZoneFile a few thousand entries at a time: it yields how far it has read (entries of the file), so a caller can
 * show progress and let the page breathe between steps (a 100,000-record file takes seconds), and returns the result.
 */
export function* parseZoneFileInSteps(text: string, options: { origin: string; defaultTtl?: number }): Generator<{ read: number; total: number }, ParsedZoneFile> {
  const zone = normaliseZone(options.origin);
  const result: ParsedZoneFile = { records: [], skipped: [], errors: [], warnings: [] };
  const state: ReaderState = { zone, origin: zone, setTtls: new Map(), fallbackTtl: options.defaultTtl };
  const entries = lex(text);
  for (const [index, entry] of entries.entries()) {
    if (index > 0 && index % STEP_ENTRIES === 0) yield { read: index, total: entries.length };
    const { line } = entry;
    const shown = entry.text.length > 200 ? `${entry.text.slice(0, 199)}…` : entry.text;
    const outcome = readEntry(entry, state);
    if (outcome === null) continue;
    if ('error' in outcome) result.errors.push({ line, text: shown, message: outcome.error });
    else if ('skip' in outcome) result.skipped.push({ line, text: shown, reason: outcome.skip });
    else {
      for (const message of outcome.warnings) result.warnings.push({ line, text: shown, message });
      result.records.push(outcome.record);
    }
  }
  return result;
}

const TYPE_ORDER = new Map<string, number>(RECORD_TYPES.map((type, index) => [type, index]));

/** Apex first, then names in alphabetical order; within a name, types in the order of RECORD_TYPES. */
export function compareRecords(a: ListedRecordLike, b: ListedRecordLike): number {
  if (a.name !== b.name) {
    if (a.name === '@') return -1;
    if (b.name === '@') return 1;
    return a.name < b.name ? -1 : 1;
  }
  if (a.type !== b.type) return (TYPE_ORDER.get(a.type) ?? 99) - (TYPE_ORDER.get(b.type) ?? 99);
  return a.rdata < b.rdata ? -1 : a.rdata > b.rdata ? 1 : 0;
}

/**
 * Writes records as a BIND zone file: a header comment, $ORIGIN and $TTL, then one record per line with absolute
 * owner names in aligned columns. Managed (parking) records are left out unless asked for.
 */
export function printZoneFile(zoneName: string, records: ListedRecordLike[], options: { includeManaged?: boolean; now?: Date } = {}): string {
  const steps = printZoneFileInSteps(zoneName, records, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Records written between two progress reports of printZoneFileInSteps. */
const STEP_RECORDS = 5000;

/**
 * printZoneFile a few thousand records at a time: it yields how many records are written, so a caller can show
 * progress and let the page breathe between steps (100,000 records take a second or two), and returns the text.
 */
export function* printZoneFileInSteps(
  zoneName: string,
  records: ListedRecordLike[],
  options: { includeManaged?: boolean; now?: Date } = {},
): Generator<{ written: number; total: number }, string> {
  const zone = normaliseZone(zoneName);
  const chosen = records.filter((r) => options.includeManaged || !r.managed).sort(compareRecords);
  const leftOut = records.length - chosen.length;
  const managers = new Set(records.filter((r) => r.managed).map((r) => managedWords(r.managedBy).by));
  const leftOutWords = `${leftOut} ${managers.size === 1 ? [...managers][0] : 'managed'} record${leftOut === 1 ? '' : 's'} left out`;
  const rows = chosen.map((r) => ({
    owner: `${fullName(r.name, zone)}.`,
    ttl: String(r.ttl),
    type: r.type,
    rdata: r.managed ? `${r.rdata} ; managed by ${managedWords(r.managedBy).by}` : [r.rdata, printNotes(r)].filter(Boolean).join(' '),
  }));
  // A loop, not Math.max(...): spreading 100,000 arguments can overflow the stack.
  let ownerWidth = 0;
  let ttlWidth = 0;
  let typeWidth = 0;
  for (const row of rows) {
    ownerWidth = Math.max(ownerWidth, row.owner.length);
    ttlWidth = Math.max(ttlWidth, row.ttl.length);
    typeWidth = Math.max(typeWidth, row.type.length);
  }
  const now = options.now ?? new Date();
  const lines = [
    `; Zone file for ${zone}`,
    `; Exported ${now.toISOString()}: ${rows.length} record${rows.length === 1 ? '' : 's'}${leftOut > 0 ? ` (${leftOutWords})` : ''}`,
    '; Times to live (TTL) are in seconds. The SOA and NS records of the zone belong to the DNS provider.',
    `$ORIGIN ${zone}.`,
    `$TTL ${DEFAULT_IMPORT_TTL}`,
    '',
  ];
  for (const [index, row] of rows.entries()) {
    if (index > 0 && index % STEP_RECORDS === 0) yield { written: index, total: rows.length };
    lines.push(`${row.owner.padEnd(ownerWidth)}  ${row.ttl.padStart(ttlWidth)}  IN  ${row.type.padEnd(typeWidth)}  ${row.rdata}`);
  }
  return `${lines.join('\n')}\n`;
}
