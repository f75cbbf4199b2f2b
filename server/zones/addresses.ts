import type { Queryable } from '../db/database.ts';
import { checkRecords } from '../dns/zone-validate.ts';
import { recordsCommand } from './records.ts';
import type { ZoneCommand } from './pipeline.ts';

/** The address records a name's addresses replace. */
export type AddressType = 'A' | 'AAAA';

/** What became of each address asked for: `good` (the RRset was replaced), `nochg` (it held exactly that address). */
export type AddressOutcome = Partial<Record<AddressType, 'good' | 'nochg'>>;

/**
 * A dynamic address's TTL when the name had none of that type: a home address changes without warning, and resolvers
 * should not hold the old one for long (the TTL an existing record has is kept).
 */
const DYNAMIC_ADDRESS_TTL = 60;

interface StoredAddress {
  id: string;
  type: AddressType;
  rdata: string;
  ttl: number;
}

/**
 * Sets a name's addresses (DynDNS2): each address given replaces the name's RRset of its type (IPv4 the A RRset, IPv6
 * the AAAA) with that one address, all in one change; a type whose RRset already holds exactly that address is left
 * as it is. The records are written by the records command (zone rules, managed records, the ALIAS and CNAME
 * exclusions), so a name the zone rules refuse an address is refused here too. `addresses` hold stored forms
 * (checked by the caller: IPv6 in RFC 5952 text).
 */
export function setAddressesCommand(zoneName: string, name: string, addresses: Partial<Record<AddressType, string>>): ZoneCommand<AddressOutcome> {
  return {
    async apply(tx, zone, context) {
      const types = (Object.keys(addresses) as AddressType[]).filter((type) => addresses[type] !== undefined);
      const stored = await storedAddresses(tx, zoneName, name, types);
      const outcome: AddressOutcome = {};
      const creates: Array<{ name: string; type: AddressType; rdata: string; ttl: number }> = [];
      const updates: Array<{ id: string; rdata: string }> = [];
      const deletes: string[] = [];
      for (const type of types) {
        const address = addresses[type]!;
        const current = stored.filter((r) => r.type === type);
        if (current.length === 1 && current[0].rdata === address) {
          outcome[type] = 'nochg';
          continue;
        }
        outcome[type] = 'good';
        // One record of the type is changed in place (its id, TTL and notes stay); any others go.
        const [keep, ...rest] = current;
        if (keep) updates.push({ id: keep.id, rdata: address });
        else creates.push({ name, type, rdata: address, ttl: DYNAMIC_ADDRESS_TTL });
        deletes.push(...rest.map((r) => r.id));
      }
      if (creates.length + updates.length + deletes.length === 0) return { result: outcome, facts: null };
      const written = await recordsCommand(checkRecords(zoneName, { creates, updates, deletes }, 'changes')).apply(tx, zone, context);
      return { ...written, result: outcome };
    },
  };
}

async function storedAddresses(tx: Queryable, zoneName: string, name: string, types: AddressType[]): Promise<StoredAddress[]> {
  if (types.length === 0) return [];
  return tx.query<StoredAddress>('SELECT id, type, rdata, ttl FROM dns_records WHERE zone_name = $1 AND name = $2 AND type = ANY($3::text[]) ORDER BY created_at, id', [zoneName, name, types]);
}
