import type { ParsedZoneFile } from '#core/dns/zone-file.ts';
import { isParkingRecord } from '#core/dns/parking.ts';
import { managedWords } from '#core/dns/managed.ts';
import { isManaged, managedByOf, type DnsRecord } from '#core/wire/dns.ts';
import { recordIdentity } from './change-set.ts';
import type { RecordInput } from './record-form.ts';

interface ImportNote {
  line?: number;
  text: string;
  reason: string;
}

export interface ImportPlan {
  /** Records to add to the change set: new to the zone and not managed. */
  creates: RecordInput[];
  /** What is left out and why: already in the zone, managed by parking, or skipped by the parser. */
  notes: ImportNote[];
  /** Lines the parser could not understand, with their line numbers. */
  errors: ParsedZoneFile['errors'];
  /** Records imported but worth a look: a TTL unlike the rest of its set, a CAA tag outside the registry. */
  warnings: ParsedZoneFile['warnings'];
}

/**
 * Turns records from a zone file (or a template) into additions for a change set: records that already exist
 * are not duplicated, parking's records are left to parking, and each is said why.
 */
export function planImport(
  records: RecordInput[],
  zone: DnsRecord[],
  parsed?: Pick<ParsedZoneFile, 'skipped' | 'errors'> & Partial<Pick<ParsedZoneFile, 'warnings'>>,
  /** skipParkingRecords false: a record like parking's (an apex CAA for letsencrypt.org) is the old zone's own, kept (the provider import of an unparked zone). */
  options: { skipParkingRecords?: boolean } = {},
): ImportPlan {
  const skipParking = options.skipParkingRecords ?? true;
  const creates: RecordInput[] = [];
  const notes: ImportNote[] = (parsed?.skipped ?? []).map((s) => ({ line: s.line, text: s.text, reason: s.reason }));
  const describe = (r: RecordInput) => `${r.name} ${r.type} ${r.rdata}`;
  const inZone = new Map<string, DnsRecord>();
  for (const z of zone) if (!inZone.has(recordIdentity(z))) inZone.set(recordIdentity(z), z);
  const added = new Set<string>();
  for (const record of records) {
    const identity = recordIdentity(record);
    const existing = inZone.get(identity);
    if (existing && isManaged(existing)) {
      const by = managedWords(managedByOf(existing)).by;
      notes.push({ text: describe(record), reason: `Served by ${by} already: left to ${by}` });
    }
    else if (existing) notes.push({ text: describe(record), reason: 'Already in the zone: not duplicated' });
    else if (skipParking && isParkingRecord(record)) notes.push({ text: describe(record), reason: 'A parking record: parking adds it when the domain is parked' });
    else if (added.has(identity)) notes.push({ text: describe(record), reason: 'Appears twice in the file: added once' });
    else {
      added.add(identity);
      creates.push(record);
    }
  }
  return { creates, notes, errors: parsed?.errors ?? [], warnings: parsed?.warnings ?? [] };
}
