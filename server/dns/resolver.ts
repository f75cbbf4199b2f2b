import { Resolver as NodeResolver } from 'node:dns/promises';
import { managedSettings } from './managed-settings.ts';
import { listZone, type ZoneCache } from './zone-read.ts';
import { isAtOrBelow, plainName, toRelative } from '#core/dns/names.ts';
import { txtFromWire } from '#core/dns/rdata.ts';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/database.ts';

/**
 * Name resolution for checks that look past one zone (the mail check): the service's own zones answer from the
 * database first; any other name is asked of DNS_RESOLVER, and when none is configured it is not resolved at all.
 * Nothing else is ever queried, so no name in a zone can make the service send a packet to a private or loopback
 * address it was not configured with.
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

const MAX_CNAMES = 8;

/** The resolver the service's checks use: its zones first (records as listed, managed ones included), then DNS_RESOLVER. */
export function serviceResolver(options: { db: Queryable; zoneCache: ZoneCache; config: Config; timeoutMs?: number }): NameResolver {
  const { db, zoneCache, config } = options;
  const settings = managedSettings(config);
  let outside: NodeResolver | null = null;
  if (config.DNS_RESOLVER.length > 0) {
    outside = new NodeResolver({ timeout: options.timeoutMs ?? 2000, tries: 2 });
    outside.setServers(config.DNS_RESOLVER);
  }

  async function ownZoneOf(name: string): Promise<string | null> {
    const labels = name.split('.');
    const candidates = labels.map((_, i) => labels.slice(i).join('.')).filter((n) => n.includes('.'));
    if (candidates.length === 0) return null;
    const rows = await db.query<{ name: string }>('SELECT name FROM domains WHERE name = ANY($1::text[]) ORDER BY length(name) DESC LIMIT 1', [candidates]);
    return rows[0]?.name ?? null;
  }

  async function fromOwnZone(zone: string, name: string, type: LookupType, depth: number): Promise<Lookup> {
    const records = await listZone(db, zoneCache, zone, settings);
    const relative = toRelative(name, zone);
    const at = records.filter((r) => r.name === relative);
    const wanted = at.filter((r) => r.type === type);
    if (wanted.length > 0) return { status: 'ok', values: wanted.map((r) => valueOf(type, r.rdata)) };
    const cname = at.find((r) => r.type === 'CNAME');
    if (cname) {
      if (depth >= MAX_CNAMES) return { status: 'unresolved', reason: `more than ${MAX_CNAMES} CNAMEs in a row from ${name}` };
      return lookupAt(plainName(cname.rdata), type, depth + 1);
    }
    if (at.length > 0 || records.some((r) => r.name !== '@' && isAtOrBelow(r.name, relative))) return { status: 'nodata' };
    return relative === '@' ? { status: 'nodata' } : { status: 'nxdomain' };
  }

  async function fromOutside(name: string, type: LookupType, depth: number): Promise<Lookup> {
    if (!outside) return { status: 'unresolved', reason: `${name} lies outside this service's zones and no DNS_RESOLVER is configured` };
    try {
      switch (type) {
        case 'TXT':
          return { status: 'ok', values: (await outside.resolveTxt(name)).map((strings) => strings.join('')) };
        case 'MX':
          return { status: 'ok', values: (await outside.resolveMx(name)).map((mx) => `${mx.priority} ${plainName(mx.exchange) || '.'}`) };
        case 'A':
          return { status: 'ok', values: await outside.resolve4(name) };
        case 'AAAA':
          return { status: 'ok', values: await outside.resolve6(name) };
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOTFOUND') return { status: 'nxdomain' };
      if (code === 'ENODATA') {
        // An authoritative server without recursion answers a CNAME alone: follow it here.
        if (depth < MAX_CNAMES) {
          const target = await outside.resolveCname(name).catch(() => [] as string[]);
          if (target.length > 0) return lookupAt(plainName(target[0]), type, depth + 1);
        }
        return { status: 'nodata' };
      }
      return { status: 'unresolved', reason: `${name} ${type}: ${code ?? (error as Error).message}` };
    }
  }

  async function lookupAt(name: string, type: LookupType, depth: number): Promise<Lookup> {
    const plain = plainName(name);
    const zone = await ownZoneOf(plain);
    return zone ? fromOwnZone(zone, plain, type, depth) : fromOutside(plain, type, depth);
  }

  return { lookup: (name, type) => lookupAt(name, type, 0) };
}

function valueOf(type: LookupType, rdata: string): string {
  if (type === 'TXT') return txtFromWire(rdata);
  if (type === 'MX') {
    const [preference, host] = rdata.trim().split(/\s+/);
    return `${preference} ${plainName(host ?? '') || '.'}`;
  }
  return rdata.trim();
}
