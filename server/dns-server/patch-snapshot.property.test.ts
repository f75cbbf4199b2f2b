import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalRdata, DNSSEC_TYPE_NUMBERS, typeNumber } from '../../src/core/dns/dnssec.ts';
import { toAbsolute } from '../../src/core/dns/names.ts';
import { verifyRrsig } from '../../src/core/dns/rrsig-verify.ts';
import type { RecordType } from '../../src/core/wire/dns.ts';
import { publicView } from '../dnssec/keys.ts';
import { buildSnapshot, DEFAULT_SOA, patchSnapshot, type NameServerSettings, type ZoneSnapshot } from './zone-snapshot.ts';

/**
 * A big zone's change is built by patching the version before it (zone-source.ts): only the names the change touched
 * are built again. Any sequence of changes, patched one after the other, gives the zone building it whole gives: the
 * same nodes, sets in the same order, the same empty non-terminals, and, signed, the same NSEC chain and signed sets.
 * PATCH_PROPERTY_RUNS=500 runs longer.
 */
const RUNS = Math.max(40, Number(process.env.PATCH_PROPERTY_RUNS ?? 40));
const ZONE = 'patch.example';
const NOW = new Date('2026-11-25T12:00:00Z');
const settings: NameServerSettings = { nameservers: ['ns1.namefi.test.'], soa: DEFAULT_SOA, nsTtl: 3600, forwardAddresses: ['192.0.2.80'] };
const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = publicKey.export({ format: 'jwk' });
const key = {
  public_key: Buffer.concat([Buffer.from(jwk.x as string, 'base64url'), Buffer.from(jwk.y as string, 'base64url')]).toString('base64'),
  private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
};

const dnskey = publicView(ZONE, key.public_key).dnskey;

/** Every signature of the zone checks against the sets it serves now: a set changed but not signed again would not. */
async function checkSignatures(zone: ZoneSnapshot) {
  const signed = zone.signed as NonNullable<ZoneSnapshot['signed']>;
  for (const rel of signed.chain) {
    for (const [type, rrsig] of signed.rrsigs.get(rel) ?? []) {
      const set = [...(zone.nodes.get(rel)?.values() ?? [])].find((s) => typeNumber(s.type) === type);
      const rdatas = type === DNSSEC_TYPE_NUMBERS.NSEC ? [signed.nsec.get(rel) as Uint8Array] : (set?.wire ?? set?.rdatas.map((r) => canonicalRdata(set.type as RecordType, r)) ?? []);
      const verdict = await verifyRrsig({ zone: ZONE, owner: toAbsolute(rel, ZONE, true), type, rdatas, rrsig, dnskeys: [dnskey], now: NOW });
      expect(verdict, `${rel} type ${type}`).toMatchObject({ ok: true });
    }
  }
}

type Rec = { name: string; type: RecordType; ttl: number; rdata: string };
// Deep names, so that names appear and disappear above others (empty non-terminals), and a delegation with glue.
const NAMES = ['@', 'www', 'a.b.c', 'b.c', 'c', 'x.y.z', '*', '*.w', 'dlg', 'glue.dlg'];
const record: fc.Arbitrary<Rec> = fc.oneof(
  fc.record({ name: fc.constantFrom(...NAMES), type: fc.constant('A' as const), ttl: fc.constantFrom(60, 300), rdata: fc.constantFrom('192.0.2.1', '192.0.2.2') }),
  fc.record({ name: fc.constantFrom(...NAMES), type: fc.constant('TXT' as const), ttl: fc.constant(120), rdata: fc.constantFrom('"a"', '"b"') }),
  fc.record({ name: fc.constant('dlg'), type: fc.constant('NS' as const), ttl: fc.constant(3600), rdata: fc.constantFrom('ns.dlg.patch.example.', 'ns.other.example.') }),
);
const step = fc.oneof(
  fc.record({ op: fc.constant('add' as const), record }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('retype' as const), at: fc.nat(), record }),
);

/** The records after the step, and the names it touched (what its history entry's records name). */
function apply(records: Rec[], s: { op: 'add' | 'delete' | 'retype'; at?: number; record?: Rec }): [Rec[], string[]] {
  if (s.op === 'add') return [[...records, s.record as Rec], [(s.record as Rec).name]];
  if (records.length === 0) return [records, []];
  const at = (s.at as number) % records.length;
  if (s.op === 'delete') return [records.filter((_, i) => i !== at), [records[at].name]];
  // An update keeps the record's place in written order (its row stays, its seq with it).
  return [records.map((r, i) => (i === at ? { ...(s.record as Rec), name: r.name } : r)), [records[at].name]];
}

const state = (serial: number, parked: boolean) => ({ serial, version: String(serial), parked, forwarding: false });
const dnssecOf = (signed: boolean, previous?: ZoneSnapshot) =>
  signed ? { key, epoch: NOW, previous: previous?.signed ? { nodes: previous.nodes, signed: previous.signed } : undefined } : undefined;

/** The zone as served, signature bytes left out (ECDSA is randomised). */
function shape(zone: ZoneSnapshot) {
  const nodes = [...zone.nodes].map(([name, node]) => [name, [...node.values()].map((set) => `${set.type} ${set.ttl} ${set.rdatas.join('|')}`)]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  const signed = zone.signed
    ? zone.signed.chain.map((rel) => ({
        rel,
        nsec: Buffer.from(zone.signed?.nsec.get(rel) as Uint8Array).toString('hex'),
        sets: [...(zone.signed?.rrsigs.get(rel)?.keys() ?? [])].sort(),
      }))
    : null;
  return { nodes, interior: [...zone.interior].sort(), signed };
}

describe('patching a big zone name by name', () => {
  it('gives the zone building it whole gives, unsigned and signed, parked or not', async () => {
    let patched = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 3, maxLength: 12 }), fc.array(step, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean(), async (initial, steps, signed, parked) => {
        let records = initial;
        let zone = buildSnapshot(ZONE, state(1, parked), records, settings, dnssecOf(signed));
        for (const [i, s] of steps.entries()) {
          const [next, touched] = apply(records, s);
          records = next;
          const names = new Set(['@', ...touched]);
          const rows = records.filter((r) => names.has(r.name));
          const serial = 2 + i;
          zone = patchSnapshot(zone, names, state(serial, parked), rows, settings, signed ? { ...dnssecOf(true, zone)!, store: undefined } : undefined, []);
          patched += 1;
          expect(zone.serial).toBe(serial);
        }
        const whole = buildSnapshot(ZONE, state(1 + steps.length, parked), records, settings, dnssecOf(signed));
        expect(shape(zone)).toEqual(shape(whole));
        if (signed) await checkSignatures(zone);
      }),
      { numRuns: RUNS, seed: Number(process.env.PATCH_PROPERTY_SEED ?? 1) },
    );
    expect(patched).toBeGreaterThanOrEqual(RUNS);
  }, 60_000);
});
