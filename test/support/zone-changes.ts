import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { expect } from 'vitest';
import { canonicalRdata, DNSSEC_TYPE_NUMBERS, typeNumber } from '#core/dns/dnssec.ts';
import { toAbsolute } from '#core/dns/names.ts';
import { verifyRrsig } from '#core/dns/rrsig-verify.ts';
import type { RecordType } from '#core/wire/dns.ts';
import type { ZoneSnapshot } from '../../server/dns-server/zone-snapshot.ts';
import { publicView } from '../../server/dnssec/keys.ts';

/**
 * What the signed-zone property tests share: a fresh zone key, random records and changes over a few names (a
 * delegation at 'dlg' with glue below it), and the check that every signature of a zone verifies.
 */

/** A new P-256 key as dnssec_keys stores it, and its DNSKEY data. */
export function testZoneKey(zone: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const key = {
    public_key: Buffer.concat([Buffer.from(jwk.x as string, 'base64url'), Buffer.from(jwk.y as string, 'base64url')]).toString('base64'),
    private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
  return { key, dnskey: publicView(zone, key.public_key).dnskey };
}

export type ZoneRecord = { name: string; type: RecordType; ttl: number; rdata: string };
export type ZoneStep = { op: 'add' | 'delete' | 'retype'; at?: number; record?: ZoneRecord };

/** A and TXT records at `names`, and NS records at 'dlg' (one in the zone, one outside); and changes of them. */
export function zoneChanges(zone: string, names: readonly string[]) {
  const record: fc.Arbitrary<ZoneRecord> = fc.oneof(
    fc.record({ name: fc.constantFrom(...names), type: fc.constant('A' as const), ttl: fc.constantFrom(60, 300), rdata: fc.constantFrom('192.0.2.1', '192.0.2.2') }),
    fc.record({ name: fc.constantFrom(...names), type: fc.constant('TXT' as const), ttl: fc.constant(120), rdata: fc.constantFrom('"a"', '"b"') }),
    fc.record({ name: fc.constant('dlg'), type: fc.constant('NS' as const), ttl: fc.constant(3600), rdata: fc.constantFrom(`ns.dlg.${zone}.`, 'ns.other.example.') }),
  );
  const step: fc.Arbitrary<ZoneStep> = fc.oneof(
    fc.record({ op: fc.constant('add' as const), record }),
    fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('retype' as const), at: fc.nat(), record }),
  );
  return { record, step };
}

/** The records after the step, and the names it touched (what its history entry's records name). An update keeps the record's place. */
export function applyStep(records: ZoneRecord[], s: ZoneStep): { records: ZoneRecord[]; touched: string[] } {
  if (s.op === 'add') return { records: [...records, s.record as ZoneRecord], touched: [(s.record as ZoneRecord).name] };
  if (records.length === 0) return { records, touched: [] };
  const at = (s.at as number) % records.length;
  if (s.op === 'delete') return { records: records.filter((_, i) => i !== at), touched: [records[at].name] };
  return { records: records.map((r, i) => (i === at ? { ...(s.record as ZoneRecord), name: r.name } : r)), touched: [records[at].name] };
}

/** Every RRSIG of a signed zone verifies against the set (or NSEC) it serves now: a set changed but not signed again fails. */
export async function expectSignaturesValid(zone: ZoneSnapshot, dnskey: Uint8Array, now: Date): Promise<void> {
  const signed = zone.signed as NonNullable<ZoneSnapshot['signed']>;
  for (const rel of signed.chain) {
    for (const [type, rrsig] of signed.rrsigs.get(rel) ?? []) {
      const set = [...(zone.nodes.get(rel)?.values() ?? [])].find((s) => typeNumber(s.type) === type);
      const rdatas = type === DNSSEC_TYPE_NUMBERS.NSEC ? [signed.nsec.get(rel) as Uint8Array] : (set?.wire ?? set?.rdatas.map((r) => canonicalRdata(set.type as RecordType, r)) ?? []);
      const verdict = await verifyRrsig({ zone: zone.zone, owner: toAbsolute(rel, zone.zone, true), type, rdatas, rrsig, dnskeys: [dnskey], now });
      expect(verdict, `${rel} type ${type}`).toMatchObject({ ok: true });
    }
  }
}
