import { isStoredRecord, type DnsRecord, type StoredDnsRecord } from '#core/wire/dns.ts';
import type { HistoryEntry } from '#core/wire/history.ts';

/** A zone's stored records by id (managed records, parking's or DNSSEC's, are not the owner's, and have no history). */
export function storedById(zone: readonly DnsRecord[]): Map<string, StoredDnsRecord> {
  return new Map(zone.filter(isStoredRecord).map((r) => [r.id, r]));
}

/** Undoes one entry on a zone held by id: a creation goes, an update goes back, a deletion comes back. */
function undo(zone: Map<string, DnsRecord>, entry: HistoryEntry): void {
  for (const change of [...entry.changes].reverse()) {
    if (change.after) zone.delete(change.after.id);
    if (change.before) zone.set(change.before.id, change.before);
  }
}

/**
 * The zone's stored records as they stood just after `entryId`, found by walking back from the zone as it is now
 * through every newer entry. `newestFirst` must hold every entry from the newest down to `entryId`. Null when the
 * entry is not among them.
 */
export function zoneAt(current: readonly DnsRecord[], newestFirst: readonly HistoryEntry[], entryId: string): DnsRecord[] | null {
  const at = newestFirst.findIndex((e) => e.id === entryId);
  if (at < 0) return null;
  const zone = storedById(current);
  for (const entry of newestFirst.slice(0, at)) undo(zone, entry);
  return [...zone.values()];
}
