import { managedByOf, type DnsRecord } from '#core/wire/dns.ts';

/**
 * Whether a zone is parked, read from the records the page already holds instead of a second request
 * (`/dns/parked`). By the contract the two cannot disagree: `getDnsRecords` lists the zone's stored and
 * managed records, the only managed records are the parking records (`metadata.managedBy: "parking"`),
 * and they are served exactly while the zone is parked. One answer also means the switch, the record
 * table and the zone rules (which refuse apex A/AAAA while parked) never show two different states.
 */
export function isParkedZone(records: readonly Pick<DnsRecord, 'metadata'>[]): boolean {
  return records.some((r) => managedByOf(r) === 'parking');
}
