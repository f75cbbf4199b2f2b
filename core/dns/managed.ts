import { dnssecApexRecords, type ApexRollover, type ZoneKeyView } from './dnssec-records.ts';
import { isIpv4 } from './ip.ts';
import { contentId, parkingRecords } from './parking.ts';
import type { ListedRecordLike } from './types.ts';

/**
 * Managed records: read-only records the provider serves in a zone because of a setting (parking, forwarding,
 * DNSSEC), never stored. The zone rules, the records API, the dashboard's table and the DNS server all take them
 * from here (the DNS server takes DNSSEC's from dnssecApexRecords directly, for their wire form).
 */
export type ManagedBy = 'parking' | 'forwarding' | 'dnssec' | 'expired' | 'alias';
export type ManagedRecord = ListedRecordLike & { id: string; managed: true; managedBy: ManagedBy };

/** The settings of a zone that bring managed records; parking and forwarding exclude each other. */
export interface ManagedState {
  parked: boolean;
  forwarding: boolean;
  /** The zone's key while it is signed (DNSSEC): its DNSKEY, CDNSKEY and CDS are listed too. */
  dnssecKey?: ZoneKeyView | null;
  /** An algorithm rollover under way: the apex lists the keys its phase publishes. */
  dnssecRollover?: ApexRollover | null;
  /** In redemption (core/expiry.ts): the apex answers only the "expired" holding page, and no stored record answers. */
  expired?: boolean;
}

/** What the service was started with: the forwarder's addresses (FORWARD_ADDRESSES). */
export interface ManagedSettings {
  forwardAddresses: readonly string[];
}

const FORWARDING_TTL = 60;

/** The forwarder's addresses at the apex, A or AAAA by the address's family. */
function forwardingRecords(zoneName: string, addresses: readonly string[]): ManagedRecord[] {
  return addresses.map((rdata) => {
    const type = isIpv4(rdata) ? ('A' as const) : ('AAAA' as const);
    return { id: contentId(zoneName, '@', type, rdata), name: '@', type, rdata, ttl: FORWARDING_TTL, managed: true as const, managedBy: 'forwarding' as const };
  });
}

/** DNSSEC's apex records of a signed zone, as listed: DNSKEY, CDNSKEY and CDS, derived from the zone's key. */
function dnssecManagedRecords(zoneName: string, key: ZoneKeyView, rollover: ApexRollover | null | undefined): ManagedRecord[] {
  return dnssecApexRecords(key, rollover).map(({ name, type, ttl, rdata }) => ({ id: contentId(zoneName, name, type, rdata), name, type, rdata, ttl, managed: true as const, managedBy: 'dnssec' as const }));
}

/** The words the holding page's TXT record answers at the apex of an expired domain. */
export const EXPIRED_TXT = '"This domain has expired. Its owner can renew it to restore it."';

/** The "expired" holding page at the apex (the forwarder's addresses serve it) and a TXT record saying so. */
function expiredRecords(zoneName: string, addresses: readonly string[]): ManagedRecord[] {
  const page = forwardingRecords(zoneName, addresses).map((r) => ({ ...r, id: contentId(zoneName, '@', r.type, `expired|${r.rdata}`), managedBy: 'expired' as const }));
  return [...page, { id: contentId(zoneName, '@', 'TXT', EXPIRED_TXT), name: '@', type: 'TXT', rdata: EXPIRED_TXT, ttl: FORWARDING_TTL, managed: true, managedBy: 'expired' }];
}

export function managedRecordsOf(zoneName: string, state: ManagedState | null, settings: ManagedSettings): ManagedRecord[] {
  const signed = state?.dnssecKey ? dnssecManagedRecords(zoneName, state.dnssecKey, state.dnssecRollover) : [];
  if (state?.expired) return [...expiredRecords(zoneName, settings.forwardAddresses), ...signed];
  if (state?.parked) return [...parkingRecords(zoneName), ...signed];
  if (state?.forwarding) return [...forwardingRecords(zoneName, settings.forwardAddresses), ...signed];
  return signed;
}

/** The metadata the service puts on a managed record it serves (the contract's managed marker). */
export function managedMetadata(record: Pick<ManagedRecord, 'managedBy'>): { managed: true; managedBy: ManagedBy } {
  return { managed: true, managedBy: record.managedBy };
}

/** Who serves each kind of managed record, named once: the table's badge, and how its owner changes or removes it. */
export const MANAGED_WORDS: Record<ManagedBy, { badge: string; by: string; why: string; toChange: string; toRemove: string }> = {
  parking: {
    badge: 'Parking',
    by: 'parking',
    why: 'Parking serves this record while the domain is parked. Turn parking off to change the apex records.',
    toChange: 'Turn parking off to manage the apex records yourself.',
    toRemove: 'Turn parking off to remove it.',
  },
  forwarding: {
    badge: 'Forwarding',
    by: 'forwarding',
    why: 'The forwarder serves this address while the domain forwards. Turn forwarding off to change the apex records.',
    toChange: 'Turn forwarding off to manage the apex records yourself.',
    toRemove: 'Turn forwarding off to remove it.',
  },
  expired: {
    badge: 'Expired',
    by: 'the expiry',
    why: 'The domain is in redemption: only this "expired" holding page answers. Renew the domain to bring its records back.',
    toChange: 'Renew the domain to manage its records again.',
    toRemove: 'Renew the domain to remove it.',
  },
  alias: {
    badge: 'ALIAS',
    by: 'an ALIAS',
    why: "The ALIAS at this name answers its target's current addresses, followed by the service. Change or delete the ALIAS to change them.",
    toChange: 'Change the ALIAS record instead.',
    toRemove: 'Delete the ALIAS record instead.',
  },
  dnssec: {
    badge: 'DNSSEC',
    by: 'DNSSEC',
    why: 'DNSSEC publishes this record while the zone is signed: its key (DNSKEY), and the same key and DS for the parent (CDNSKEY, CDS). Turn DNSSEC off to remove it.',
    toChange: 'Turn DNSSEC off to remove it.',
    toRemove: 'Turn DNSSEC off to remove it.',
  },
};

/** The words for a record's manager; one this dashboard does not know (another service's) reads as the provider. */
export function managedWords(managedBy: string | null | undefined): { badge: string; by: string; why: string; toChange: string; toRemove: string } {
  if (managedBy && Object.hasOwn(MANAGED_WORDS, managedBy)) return MANAGED_WORDS[managedBy as ManagedBy];
  return { badge: 'Provider', by: 'the provider', why: 'The DNS provider serves this record; it cannot be changed here.', toChange: 'It cannot be changed here.', toRemove: 'It cannot be removed here.' };
}
