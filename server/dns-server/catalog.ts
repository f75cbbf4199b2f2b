import { createHash } from 'node:crypto';
import type { Packet } from 'dns-packet';
import { isAtOrBelow } from '#core/dns/names.ts';
import type { Queryable } from '../db/database.ts';
import { heldSerial, soaAtSerial, PER_MESSAGE } from './ixfr.ts';
import { rr } from './resolve.ts';
import { buildSnapshot, type NameServerSettings, type ZoneSnapshot } from './zone-snapshot.ts';
import type { ZoneSource } from './zone-source.ts';

/**
 * The catalog zone (RFC 9432, schema version 2): `version TXT "2"` and one `<label>.zones PTR <zone>.` per zone the
 * service holds, so a secondary configured with the catalog alone serves every zone, a new one included. A member's
 * label is a hash of its name: unique per zone and the same on every instance. Every zone added or removed is a row
 * of the catalog's journal (`catalog_changes`, migration 086): the serial is the last row's plus one, the same on
 * every instance and read with one indexed read, and IXFR sends the rows since a secondary's serial, one zone's line
 * each. The whole catalog is built only for a query into it or its AXFR, and kept until a zone is added or removed
 * (a change of a zone's records is no change of the catalog).
 */
const memberLabel = (zone: string) => createHash('sha256').update(zone).digest('hex').slice(0, 20);
/** Past this many changes since a secondary's serial, it gets the whole catalog (AXFR) rather than the differences. */
const JOURNAL_MAX = 10_000;

export function catalogSource(db: Queryable, catalogZone: string, settings: NameServerSettings) {
  let cached: ZoneSnapshot | null = null;
  /** Zones changed since `cached` was checked against the journal: it is checked again (one read) before use. */
  let unchecked = false;
  let generation = 0;
  // RFC 9432 §4.1: the catalog's NS is a placeholder, never queried.
  const catalogSettings: NameServerSettings = { ...settings, nameservers: ['invalid.'] };
  const build = (serial: number, members: string[]) => {
    const records = [
      { name: 'version', type: 'TXT' as const, ttl: 0, rdata: '"2"' },
      ...members.map((name) => ({ name: `${memberLabel(name)}.zones`, type: 'PTR' as const, ttl: 0, rdata: `${name}.` })),
    ];
    return buildSnapshot(catalogZone, { serial, version: `catalog-${serial}`, parked: false, forwarding: false }, records, catalogSettings);
  };
  /** The catalog's serial now: the journal's last row plus one. */
  const serial = async () => Number((await db.query<{ last: string | number }>('SELECT COALESCE(max(serial), 0) AS last FROM catalog_changes'))[0].last) + 1;

  async function whole(): Promise<ZoneSnapshot> {
    const started = generation;
    if (cached && unchecked && (await serial()) === cached.serial) {
      if (generation === started) unchecked = false;
      return cached;
    }
    if (cached && !unchecked) return cached;
    // The members and the serial in one statement, so they are of one moment.
    const rows = await db.query<{ name: string | null; last: string | number }>(
      `SELECT d.name, (SELECT COALESCE(max(serial), 0) FROM catalog_changes) AS last FROM (SELECT NULL::text AS name UNION ALL SELECT name FROM domains) d ORDER BY d.name NULLS FIRST`,
    );
    const snapshot = build(Number(rows[0].last) + 1, rows.flatMap((r) => (r.name === null ? [] : [r.name])));
    if (generation === started) [cached, unchecked] = [snapshot, false];
    return snapshot;
  }

  return {
    zone: catalogZone,
    /** A zone changed: it may have been added or removed, so the catalog is checked against its journal before use. */
    drop() {
      generation += 1;
      unchecked = true;
    },
    serial,
    /** The whole catalog, as a query into it or its AXFR answers it. */
    snapshot: whole,
    /** The catalog's apex alone (its SOA at the current serial), for IXFR: no member read. */
    apex: async () => build(await serial(), []),
    /** The zones added and removed from serial `from` to `to`, in order; null when more than the journal answers. */
    async changesSince(from: number, to: number): Promise<Array<{ serial: number; zone: string; added: boolean }> | null> {
      if (to - from > JOURNAL_MAX) return null;
      const rows = await db.query<{ serial: string | number; zone_name: string; added: boolean }>('SELECT serial, zone_name, added FROM catalog_changes WHERE serial >= $1 AND serial < $2 ORDER BY serial', [from, to]);
      if (rows.length !== to - from) return null;
      return rows.map((r) => ({ serial: Number(r.serial), zone: r.zone_name, added: r.added }));
    },
  };
}
export type CatalogSource = ReturnType<typeof catalogSource>;

/**
 * IXFR of the catalog (RFC 1995) from its journal: per zone added or removed since the secondary's serial, the SOA
 * before, its PTR line deleted (removed), the SOA after, its PTR line added (added). Null: the whole catalog instead
 * (no serial in the query, or one the journal does not cover).
 */
export async function catalogIxfr(catalog: CatalogSource, query: Packet, reply: (answers: Packet['answers']) => Packet): Promise<Packet[] | null> {
  const from = heldSerial(query);
  if (from === null) return null;
  const apex = await catalog.apex();
  const soaAt = soaAtSerial(apex);
  const current = soaAt(apex.serial);
  if (from >= apex.serial) return [reply([current])];
  const changes = await catalog.changesSince(from, apex.serial);
  if (!changes) return null;
  const line = (zone: string) => rr(`${memberLabel(zone)}.zones.${catalog.zone}`, 'PTR', 0, `${zone}.`);
  const records = [current];
  for (const change of changes) records.push(soaAt(change.serial), ...(change.added ? [] : [line(change.zone)]), soaAt(change.serial + 1), ...(change.added ? [line(change.zone)] : []));
  records.push(current);
  const messages: Packet[] = [];
  for (let i = 0; i < records.length; i += PER_MESSAGE) messages.push(reply(records.slice(i, i + PER_MESSAGE)));
  return messages;
}

/** The zones with the catalog in front: a name in the catalog zone is answered from it. */
export function withCatalog(zones: ZoneSource, catalog: CatalogSource): ZoneSource {
  const stop = zones.onChange(() => catalog.drop());
  const inCatalog = (qname: string) => isAtOrBelow(qname, catalog.zone);
  const wrapped: ZoneSource = Object.create(zones);
  wrapped.find = (qname: string) => (inCatalog(qname) ? catalog.snapshot() : zones.find(qname));
  wrapped.compiled = (qname: string) => (inCatalog(qname) ? Promise.resolve(null) : zones.compiled(qname));
  wrapped.close = async () => {
    stop();
    await zones.close();
  };
  return wrapped;
}
