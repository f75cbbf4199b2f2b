import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyStep, expectSignaturesValid, testZoneKey, zoneChanges } from '../../test/support/zone-changes.ts';
import { buildSnapshot, DEFAULT_SOA, patchSnapshot, type NameServerSettings, type ZoneSnapshot } from './zone-snapshot.ts';

/**
 * A big zone's change is built by patching the version before it (snapshot-builder.ts): only the names the change touched
 * are built again. Any sequence of changes, patched one after the other, gives the zone building it whole gives: the
 * same nodes, sets in the same order, the same empty non-terminals, and, signed, the same NSEC chain and signed sets.
 * PATCH_PROPERTY_RUNS=500 runs longer.
 */
const RUNS = Math.max(40, Number(process.env.PATCH_PROPERTY_RUNS ?? 40));
const ZONE = 'patch.example';
const NOW = new Date('2026-11-25T12:00:00Z');
const settings: NameServerSettings = { nameservers: ['ns1.namefi.test.'], soa: DEFAULT_SOA, nsTtl: 3600, forwardAddresses: ['192.0.2.80'] };
const { key, dnskey } = testZoneKey(ZONE);
// Deep names, so that names appear and disappear above others (empty non-terminals), and a delegation with glue.
const { record, step } = zoneChanges(ZONE, ['@', 'www', 'a.b.c', 'b.c', 'c', 'x.y.z', '*', '*.w', 'dlg', 'glue.dlg']);

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
          const applied = applyStep(records, s);
          records = applied.records;
          const touched = applied.touched;
          const names = new Set(['@', ...touched]);
          const rows = records.filter((r) => names.has(r.name));
          const serial = 2 + i;
          zone = patchSnapshot(zone, names, state(serial, parked), rows, settings, signed ? { ...dnssecOf(true, zone)!, store: undefined } : undefined, []);
          patched += 1;
          expect(zone.serial).toBe(serial);
        }
        const whole = buildSnapshot(ZONE, state(1 + steps.length, parked), records, settings, dnssecOf(signed));
        expect(shape(zone)).toEqual(shape(whole));
        if (signed) await expectSignaturesValid(zone, dnskey, NOW);
      }),
      { numRuns: RUNS, seed: Number(process.env.PATCH_PROPERTY_SEED ?? 1) },
    );
    expect(patched).toBeGreaterThanOrEqual(RUNS);
  }, 60_000);
});
