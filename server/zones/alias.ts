import { contentId } from '#core/dns/parking.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import type { RecordChange } from '#core/wire/history.ts';
import type { Queryable } from '../db/database.ts';
import type { ZoneCommand } from './pipeline.ts';

/**
 * ALIAS flattening as zone changes: the addresses an ALIAS's target resolves to are kept in `alias_addresses`
 * (migration 071) and served as A/AAAA at the ALIAS's name. They change only here, through the pipeline: a new serial,
 * a history entry whose changes are these A/AAAA records (managed, `managedBy: "alias"`), which IXFR sends as it sends
 * any other change, so secondaries follow a target's addresses.
 */

export interface FlatAddress {
  type: 'A' | 'AAAA';
  rdata: string;
}

interface AddressRow {
  name: string;
  target: string;
  type: 'A' | 'AAAA';
  rdata: string;
  ttl: number;
}

/** A flattened address as the history and IXFR read it: an A or AAAA record the ALIAS manages. */
function flatRecord(zoneName: string, row: Pick<AddressRow, 'name' | 'type' | 'rdata' | 'ttl'>, at: string): DnsRecord {
  return {
    id: contentId(zoneName, row.name, row.type, `alias|${row.rdata}`),
    zoneName,
    name: row.name,
    type: row.type,
    class: 'IN',
    ttl: row.ttl,
    rdata: row.rdata,
    metadata: { managed: true, managedBy: 'alias' },
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * Sets the addresses of the ALIASes resolved (name -> target and its addresses now), re-read under the zone's lock: an
 * ALIAS deleted or pointed elsewhere since it was resolved is left alone; addresses already as they are change nothing
 * (no serial, no entry). Addresses of names with no ALIAS any more are dropped too.
 */
export function flattenAliasCommand(resolved: ReadonlyMap<string, { target: string; addresses: FlatAddress[] }>): ZoneCommand<number> {
  return {
    async apply(tx, zone, { now }) {
      const at = now.toISOString();
      const aliases = await tx.query<{ name: string; rdata: string; ttl: number }>("SELECT name, rdata, ttl FROM dns_records WHERE zone_name = $1 AND type = 'ALIAS'", [zone.name]);
      const current = await tx.query<AddressRow>('SELECT name, target, type, rdata, ttl FROM alias_addresses WHERE zone_name = $1', [zone.name]);
      const aliasAt = new Map(aliases.map((a) => [a.name, a]));
      const key = (r: Pick<AddressRow, 'name' | 'type' | 'rdata'>) => `${r.name} ${r.type} ${r.rdata}`;
      const wanted = new Map<string, AddressRow>();
      for (const row of current) {
        const alias = aliasAt.get(row.name);
        // Kept unless the name was resolved again, or its ALIAS is gone or follows another target now.
        if (alias && alias.rdata === row.target && !resolved.has(row.name)) wanted.set(key(row), { ...row, ttl: alias.ttl });
      }
      for (const [name, { target, addresses }] of resolved) {
        const alias = aliasAt.get(name);
        if (!alias || alias.rdata !== target) continue;
        for (const address of addresses) wanted.set(key({ name, ...address }), { name, target, ...address, ttl: alias.ttl });
      }
      const currentKeys = new Map(current.map((r) => [key(r), r]));
      const removed = current.filter((r) => {
        const keep = wanted.get(key(r));
        return !keep || keep.ttl !== r.ttl || keep.target !== r.target;
      });
      const added = [...wanted.values()].filter((r) => {
        const had = currentKeys.get(key(r));
        return !had || had.ttl !== r.ttl || had.target !== r.target;
      });
      if (removed.length === 0 && added.length === 0) return { result: 0, facts: null };
      if (removed.length > 0) {
        await tx.query(
          'DELETE FROM alias_addresses a USING unnest($2::text[], $3::text[], $4::text[]) AS u(name, type, rdata) WHERE a.zone_name = $1 AND a.name = u.name AND a.type = u.type AND a.rdata = u.rdata',
          [zone.name, removed.map((r) => r.name), removed.map((r) => r.type), removed.map((r) => r.rdata)],
        );
      }
      if (added.length > 0) {
        await tx.query(
          'INSERT INTO alias_addresses (zone_name, name, target, type, rdata, ttl) SELECT $1, u.name, u.target, u.type, u.rdata, u.ttl FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[]) AS u(name, target, type, rdata, ttl)',
          [zone.name, added.map((r) => r.name), added.map((r) => r.target), added.map((r) => r.type), added.map((r) => r.rdata), added.map((r) => r.ttl)],
        );
      }
      const changes: RecordChange[] = [
        ...removed.map((r): RecordChange => ({ op: 'delete', before: flatRecord(zone.name, r, at), after: null })),
        ...added.map((r): RecordChange => ({ op: 'create', before: null, after: flatRecord(zone.name, r, at) })),
      ];
      return { result: changes.length, facts: { changes } };
    },
  };
}

/**
 * Drops the flattened addresses at `names` whose ALIAS is gone or now follows another target, inside a records change
 * (the same transaction, the same history entry): answers their deletions for the entry's changes.
 */
export async function dropStaleFlattened(tx: Queryable, zoneName: string, names: string[], now: string): Promise<RecordChange[]> {
  if (names.length === 0) return [];
  const rows = await tx.query<AddressRow>(
    `DELETE FROM alias_addresses a WHERE a.zone_name = $1 AND a.name = ANY($2::text[])
       AND NOT EXISTS (SELECT 1 FROM dns_records r WHERE r.zone_name = a.zone_name AND r.name = a.name AND r.type = 'ALIAS' AND r.rdata = a.target)
     RETURNING name, target, type, rdata, ttl`,
    [zoneName, names],
  );
  return rows.map((r) => ({ op: 'delete', before: flatRecord(zoneName, r, now), after: null }));
}
