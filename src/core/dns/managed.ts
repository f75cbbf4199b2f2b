import { isIpv4 } from './ip.ts';
import { contentId, parkingRecords } from './parking.ts';
import type { RecordLike } from './types.ts';

/**
 * Managed records: read-only records the provider serves in a zone because of a setting (parking, forwarding),
 * never stored. The zone rules, the records API, the dashboard's table and the DNS server all take them from here.
 */
export type ManagedBy = 'parking' | 'forwarding';
export type ManagedRecord = RecordLike & { id: string; managed: true; managedBy: ManagedBy };

/** The settings of a zone that bring managed records; parking and forwarding exclude each other. */
export interface ManagedState {
  parked: boolean;
  forwarding: boolean;
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

export function managedRecordsOf(zoneName: string, state: ManagedState | null, settings: ManagedSettings): ManagedRecord[] {
  if (state?.parked) return parkingRecords(zoneName).map((r) => ({ ...r, managedBy: 'parking' as const }));
  if (state?.forwarding) return forwardingRecords(zoneName, settings.forwardAddresses);
  return [];
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
