import type { DnsRecord } from '../wire/dns.ts';
import type { HistoryEntry } from '../wire/history.ts';

const sameRecord = (a: DnsRecord, b: DnsRecord) => a.name === b.name && a.type === b.type && a.rdata === b.rdata && a.ttl === b.ttl && a.updatedAt === b.updatedAt;

/**
 * Whether a history read oldest first holds together: serials only grow (an entry that changes no record and leaves
 * the serial, access granted or revoked or a transfer, may repeat it), and each change of a record starts from
 * the record as the previous entry left it. A signature covers one entry; this catches an entry edited, removed or
 * reordered between entries, unsigned ones (API keys, orders) included. Answers each break in words.
 */
export function continuityProblems(oldestFirst: readonly HistoryEntry[]): string[] {
  const problems: string[] = [];
  const last = new Map<string, { record: DnsRecord | null; serial: number }>();
  let serial = -Infinity;
  for (const entry of oldestFirst) {
    // Granting or revoking access and a transfer leave what the zone answers, and so its serial, as it was.
    const keepsSerial = entry.changes.length === 0 && (entry.access !== undefined || entry.transfer !== undefined);
    if (entry.serial < serial || (entry.serial === serial && !keepsSerial)) problems.push(`serial ${entry.serial} (entry ${entry.id}) does not follow serial ${serial}`);
    serial = Math.max(serial, entry.serial);
    for (const change of entry.changes) {
      const id = (change.before ?? change.after)!.id;
      const seen = last.get(id);
      if (seen) {
        const broke = seen.record === null ? change.before !== null : change.before === null || !sameRecord(seen.record, change.before);
        if (broke) problems.push(`record ${id} at serial ${entry.serial} does not start from where serial ${seen.serial} left it`);
      }
      last.set(id, { record: change.after, serial: entry.serial });
    }
  }
  return problems;
}
