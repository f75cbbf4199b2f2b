import type { ManagedSettings } from '#core/dns/managed.ts';
import { isAtOrBelow, plainName, toAbsolute, toRelative } from '#core/dns/names.ts';
import { txtFromWire } from '#core/dns/rdata.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { nameResolution, type Answered, type OwnZones, type ResolveName } from '../dns-client/resolution.ts';
import { RCODE } from '../dns-client/reply.ts';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import { managedSettings } from './managed-settings.ts';
import { owningZone } from './owning-zone.ts';
import { listZone, type ZoneCache } from './zone-read.ts';

/**
 * Name resolution for checks that look past one zone (the mail check, the name of a scan's name server), by the one
 * policy of server/dns-client/resolution.ts: the service's own zones answer from the database first (records as
 * listed, managed ones included); any other name is asked of DNS_RESOLVER, and when none is configured it is not
 * resolved at all.
 */
type LookupType = 'TXT' | 'MX' | 'A' | 'AAAA';

export type Lookup =
  /** The records at the name (TXT as its text, MX as "preference host", A/AAAA as addresses). */
  | { status: 'ok'; values: string[] }
  /** The name exists without records of this type. */
  | { status: 'nodata' }
  | { status: 'nxdomain' }
  /** It could not be answered: no resolver configured for a name outside the service's zones, a timeout, a SERVFAIL. */
  | { status: 'unresolved'; reason: string };

export interface NameResolver {
  lookup(name: string, type: LookupType): Promise<Lookup>;
}

interface ResolverOptions {
  db: Queryable;
  zoneCache: ZoneCache;
  config: Pick<Config, 'DNS_RESOLVER'> & Parameters<typeof managedSettings>[0];
  timeoutMs?: number;
}

/** The own zones as listed: the records at a name of the zone that holds it, or its CNAME; NXDOMAIN where nothing is at or below it. */
function listedZones(db: Queryable, zoneCache: ZoneCache, settings: ManagedSettings): OwnZones {
  return async (name: string, type: RecordType): Promise<Answered | null> => {
    const zone = await owningZone(db, name);
    if (!zone) return null;
    const records = await listZone(db, zoneCache, zone.name, settings);
    const relative = toRelative(name, zone.name);
    const at = records.filter((r) => r.name === relative);
    const wanted = at.filter((r) => r.type === type);
    const answers = wanted.length > 0 ? wanted : at.filter((r) => r.type === 'CNAME');
    const exists = relative === '@' || at.length > 0 || records.some((r) => r.name !== '@' && isAtOrBelow(r.name, relative));
    return {
      rcode: exists ? RCODE.NOERROR : RCODE.NXDOMAIN,
      // Of the type asked or CNAME, both types a record may have (the filter above), so the cast holds.
      answers: answers.map((r) => ({ name: plainName(toAbsolute(r.name, zone.name)), type: r.type as RecordType, ttl: r.ttl, rdata: r.rdata })),
    };
  };
}

/** The policy with the service's own zones read from its database: for a caller that wants the records themselves (the scan). */
export function serviceResolution(options: ResolverOptions): ResolveName {
  const { db, zoneCache, config } = options;
  return nameResolution({ ownZones: listedZones(db, zoneCache, managedSettings(config)), resolvers: config.DNS_RESOLVER, timeoutMs: options.timeoutMs ?? 2000, tries: 2 });
}

/** The resolver the service's checks use: its zones first (records as listed, managed ones included), then DNS_RESOLVER. */
export function serviceResolver(options: ResolverOptions): NameResolver {
  const resolveName = serviceResolution(options);
  return {
    async lookup(name, type) {
      const resolved = await resolveName(name, type);
      if (resolved.status === 'ok') return { status: 'ok', values: resolved.answers.map((a) => valueOf(type, a.rdata)) };
      return resolved.status === 'unresolved' ? { status: 'unresolved', reason: resolved.reason } : { status: resolved.status };
    },
  };
}

function valueOf(type: LookupType, rdata: string): string {
  if (type === 'TXT') return txtFromWire(rdata);
  if (type === 'MX') {
    const [preference, host] = rdata.trim().split(/\s+/);
    return `${preference} ${plainName(host ?? '') || '.'}`;
  }
  return rdata.trim();
}
