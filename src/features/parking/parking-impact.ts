import { PARKING_REPLACES, parkingRecords } from '#core/dns/parking.ts';
import { isManaged, type DnsRecord } from '#core/wire/dns.ts';

export interface ParkingImpact {
  /** Stored apex A/AAAA/CAA records: deleted when parking overrides, served beside parking otherwise. */
  affected: DnsRecord[];
  /** The managed records parking adds at the apex. */
  added: Array<{ type: string; rdata: string }>;
}

/** What parking would do to a zone: which stored records it replaces (or sits beside) and what it adds. */
export function parkingImpact(zoneName: string, records: DnsRecord[]): ParkingImpact {
  const affected = records.filter((r) => !isManaged(r) && r.name === '@' && (PARKING_REPLACES as readonly string[]).includes(r.type));
  return { affected, added: parkingRecords(zoneName).map(({ type, rdata }) => ({ type, rdata })) };
}

export function parkingSigningLines(domain: string, enable: boolean, override: boolean, affected: number): string[] {
  if (!enable) return [`Stop parking ${domain}: the parking records go, your own records stay`];
  const lines = [`Park ${domain}: serve the parking page's records at ${domain}`];
  if (affected > 0) {
    lines.push(
      override
        ? `Delete your ${affected} apex A/AAAA/CAA record${affected === 1 ? '' : 's'} they replace`
        : `Keep your ${affected} apex A/AAAA/CAA record${affected === 1 ? '' : 's'} beside them`,
    );
  }
  return lines;
}
