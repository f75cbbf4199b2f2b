import { createHash } from 'node:crypto';
import { isAtOrBelow } from '#core/dns/names.ts';
import type { Queryable } from '../db/database.ts';
import { buildSnapshot, type NameServerSettings, type ZoneSnapshot } from './zone-snapshot.ts';
import type { ZoneSource } from './zone-source.ts';

/**
 * The catalog zone (RFC 9432, schema version 2): `version TXT "2"` and one `<label>.zones PTR <zone>.` per zone the
 * service holds, so a secondary configured with the catalog alone serves every zone, a new one included. A member's
 * label is a hash of its name: unique per zone and the same on every instance. The serial is the number of zones
 * (zones are added, never removed, by this service), so every instance gives the same one.
 */
const memberLabel = (zone: string) => createHash('sha256').update(zone).digest('hex').slice(0, 20);

export function catalogSource(db: Queryable, catalogZone: string, settings: NameServerSettings) {
  let cached: ZoneSnapshot | null = null;
  // RFC 9432 §4.1: the catalog's NS is a placeholder, never queried.
  const catalogSettings: NameServerSettings = { ...settings, nameservers: ['invalid.'] };
  return {
    zone: catalogZone,
    /** Dropped on every zone change announced: a new zone changes the catalog. */
    drop() {
      cached = null;
    },
    async snapshot(): Promise<ZoneSnapshot> {
      if (cached) return cached;
      const rows = await db.query<{ name: string }>('SELECT name FROM domains ORDER BY name');
      const records = [
        { name: 'version', type: 'TXT' as const, ttl: 0, rdata: '"2"' },
        ...rows.map((r) => ({ name: `${memberLabel(r.name)}.zones`, type: 'PTR' as const, ttl: 0, rdata: `${r.name}.` })),
      ];
      const serial = rows.length + 1;
      cached = buildSnapshot(catalogZone, { serial, version: `catalog-${serial}`, parked: false, forwarding: false }, records, catalogSettings);
      return cached;
    },
  };
}
export type CatalogSource = ReturnType<typeof catalogSource>;

/** The zones with the catalog in front: a name in the catalog zone is answered from it. */
export function withCatalog(zones: ZoneSource, catalog: CatalogSource): ZoneSource {
  const stop = zones.onChange(() => catalog.drop());
  const inCatalog = (qname: string) => isAtOrBelow(qname, catalog.zone);
  const wrapped: ZoneSource = Object.create(zones);
  wrapped.find = (qname: string) => (inCatalog(qname) ? catalog.snapshot() : zones.find(qname));
  wrapped.close = async () => {
    stop();
    await zones.close();
  };
  return wrapped;
}
