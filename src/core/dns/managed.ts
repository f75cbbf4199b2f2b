import { dnssecApexRecords, type ZoneKeyView } from './dnssec-records.ts';
import { isIpv4 } from './ip.ts';
import { contentId, parkingRecords } from './parking.ts';
import type { ListedRecordLike } from './types.ts';

/**
 * Managed records: read-only records the provider serves in a zone because of a setting (parking, forwarding,
 * DNSSEC), never stored. The zone rules, the records API, the dashboard's table and the DNS server all take them
 * from here (the DNS server takes DNSSEC's from dnssecApexRecords directly, for their wire form).
 */
export type ManagedBy = 'parking' | 'forwarding' | 'dnssec';
export type ManagedRecord = ListedRecordLike & { id: string; managed: true; managedBy: ManagedBy };

/** The settings of a zone that bring managed records; parking and forwarding exclude each other. */
export interface ManagedState {
  parked: boolean;
  forwarding: boolean;
  /** The zone's key while it is signed (DNSSEC): its DNSKEY, CDNSKEY and CDS are listed too. */
  dnssecKey?: ZoneKeyView | null;
}

/** What the service was started with: the forwarder's addresses (FORWARD_ADDRESSES). */
export interface ManagedSettings {
  forwardAddresses: readonly string[];
}

export const FORWARDING_TTL = 60;

/** The forwarder's addresses at the apex, A or AAAA by the address's family. */
export function forwardingRecords(zoneName: string, addresses: readonly string[]): ManagedRecord[] {
  return addresses.map((rdata) => {
    const type = isIpv4(rdata) ? ('A' as const) : ('AAAA' as const);
    return { id: contentId(zoneName, '@', type, rdata), name: '@', type, rdata, ttl: FORWARDING_TTL, managed: true as const, managedBy: 'forwarding' as const };
  });
}

/** DNSSEC's apex records of a signed zone, as listed: DNSKEY, CDNSKEY and CDS, derived from the zone's key. */
export function dnssecManagedRecords(zoneName: string, key: ZoneKeyView): ManagedRecord[] {
  return dnssecApexRecords(key).map(({ name, type, ttl, rdata }) => ({ id: contentId(zoneName, name, type, rdata), name, type, rdata, ttl, managed: true as const, managedBy: 'dnssec' as const }));
}

export function managedRecordsOf(zoneName: string, state: ManagedState | null, settings: ManagedSettings): ManagedRecord[] {
  const signed = state?.dnssecKey ? dnssecManagedRecords(zoneName, state.dnssecKey) : [];
  if (state?.parked) return [...parkingRecords(zoneName).map((r) => ({ ...r, managedBy: 'parking' as const })), ...signed];
  if (state?.forwarding) return [...forwardingRecords(zoneName, settings.forwardAddresses), ...signed];
  return signed;
}

/** The metadata the service puts on a managed record it serves (the contract's managed marker). */
export function managedMetadata(record: Pick<ManagedRecord, 'managedBy'>): { managed: true; managedBy: ManagedBy } {
  return { managed: true, managedBy: record.managedBy };
}

/** A record the service serves because the zone is forwarded. */
export function isManagedByForwarding(record: { metadata?: unknown }): boolean {
  const metadata = record.metadata as { managed?: unknown; managedBy?: unknown } | null | undefined;
  return typeof metadata === 'object' && metadata !== null && metadata.managed === true && metadata.managedBy === 'forwarding';
}
