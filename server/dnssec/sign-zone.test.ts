import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalRdata, DNSSEC_TYPE_NUMBERS, fromBase64, parseRrsig, typeNumber } from '#core/dns/dnssec.ts';
import { verifyRrsig } from '#core/dns/rrsig-verify.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { buildSnapshot, DEFAULT_SOA, type NameServerSettings, type ZoneSnapshot } from '../dns-server/zone-snapshot.ts';
import { publicView } from './keys.ts';
import { RENEW_SECONDS, VALIDITY_SECONDS } from './sign-zone.ts';

const ZONE = 'verify.example';
const DAY = 86400_000;

function storedKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from(jwk.x as string, 'base64url'), Buffer.from(jwk.y as string, 'base64url')]);
  return { public_key: point.toString('base64'), private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64') };
}

const RECORDS: Array<{ name: string; type: RecordType; ttl: number; rdata: string }> = [
  { name: 'www', type: 'A', ttl: 300, rdata: '192.0.2.1' },
  { name: 'www', type: 'A', ttl: 300, rdata: '192.0.2.2' },
  { name: '@', type: 'MX', ttl: 3600, rdata: '10 MAIL.verify.example.' },
  { name: '*.shop', type: 'TXT', ttl: 120, rdata: '"any"' },
];

function snapshot(epoch: Date, key = storedKey(), previous?: ZoneSnapshot, records = RECORDS) {
  const settings: NameServerSettings = { nameservers: ['ns1.namefi.test.'], soa: DEFAULT_SOA, nsTtl: 3600, forwardAddresses: [] };
  return { key, zone: buildSnapshot(ZONE, { serial: 7, version: 'v', parked: true, forwarding: false }, records, settings, { key, epoch, previous: previous?.signed ? { nodes: previous.nodes, signed: previous.signed } : undefined }) };
}

/** Checks the signature over one set of the snapshot as the dashboard does, answered at `owner`. */
function check(zone: ZoneSnapshot, key: { public_key: string }, node: string, type: RecordType, now: Date, options: { owner?: string; rdatas?: Uint8Array[] } = {}) {
  const set = zone.nodes.get(node)?.get(type);
  const rdatas = options.rdatas ?? set?.rdatas.map((r) => canonicalRdata(type, r)) ?? [];
  return verifyRrsig({
    zone: ZONE,
    owner: options.owner ?? (node === '@' ? ZONE : `${node}.${ZONE}`),
    type: typeNumber(type),
    rdatas,
    rrsig: zone.signed?.rrsigs.get(node)?.get(typeNumber(type)) as Uint8Array,
    dnskeys: [publicView(ZONE, key.public_key).dnskey],
    now,
  });
}

describe('the RRSIG check the dashboard runs (WebCrypto), against a zone the service signed', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  const { key, zone } = snapshot(now);

  it('accepts every set the service signed: records, parking, SOA, NS, the keys themselves', async () => {
    for (const [node, type] of [['www', 'A'], ['@', 'MX'], ['@', 'A'], ['@', 'CAA'], ['@', 'SOA'], ['@', 'NS']] as const) {
      expect(await check(zone, key, node, type, now), `${node} ${type}`).toMatchObject({ ok: true, keyTag: zone.signed?.keyTag });
    }
    const dnskey = publicView(ZONE, key.public_key).dnskey;
    const verdict = await verifyRrsig({
      zone: ZONE, owner: ZONE, type: DNSSEC_TYPE_NUMBERS.DNSKEY, rdatas: [dnskey], rrsig: zone.signed?.rrsigs.get('@')?.get(DNSSEC_TYPE_NUMBERS.DNSKEY) as Uint8Array, dnskeys: [dnskey], now,
    });
    expect(verdict.ok).toBe(true);
  });

  it('accepts a wildcard answer at the name asked, from the wildcard signature', async () => {
    expect(await check(zone, key, '*.shop', 'TXT', now, { owner: `store9.shop.${ZONE}.` })).toMatchObject({ ok: true });
  });

  it('says why not: changed data, another key, an expired or not yet valid signature', async () => {
    expect(await check(zone, key, 'www', 'A', now, { rdatas: [canonicalRdata('A', '192.0.2.9')] })).toEqual({ ok: false, reason: "the signature does not match the records with the zone's key" });
    const other = storedKey();
    expect(await check(zone, other, 'www', 'A', now)).toMatchObject({ ok: false, reason: expect.stringMatching(/^the zone publishes no DNSKEY with the key tag \d+$/) });
    expect(await check(zone, key, 'www', 'A', new Date(now.getTime() + 15 * DAY))).toMatchObject({ ok: false, reason: expect.stringMatching(/^the signature expired at 2026-12-09T/) });
    expect(await check(zone, key, 'www', 'A', new Date(now.getTime() - 2 * 3600_000))).toMatchObject({ ok: false, reason: expect.stringMatching(/^the signature is valid only from /) });
  });
});

describe('signing again after a change, and before signatures run out', () => {
  const start = new Date('2026-11-25T12:00:00Z');

  it('signs for 14 days from the signing epoch, re-signs only the changed set, the SOA and the NSEC records around a new name', () => {
    const first = snapshot(start);
    const rrsig = parseRrsig(first.zone.signed?.rrsigs.get('www')?.get(1) as Uint8Array);
    expect(rrsig.expiration - Math.floor(start.getTime() / 1000)).toBe(VALIDITY_SECONDS);
    expect(Math.floor(start.getTime() / 1000) - rrsig.inception).toBe(3600);
    const total = first.zone.signed?.made as number;
    const changed = snapshot(start, first.key, first.zone, [...RECORDS, { name: 'new', type: 'TXT', ttl: 60, rdata: '"n"' }]);
    // The new set and its NSEC, the NSEC before it (its next name changed), the SOA (its serial is in the data, and
    // here unchanged, so reused). Nothing else.
    expect(changed.zone.signed?.made).toBe(3);
    expect(total).toBeGreaterThan(10);
  });

  it('is due for renewal 3 days before the signatures run out, and a new epoch signs everything again from it', () => {
    const first = snapshot(start);
    const renewAt = first.zone.signed?.renewAt as number;
    expect(renewAt).toBe(start.getTime() + (VALIDITY_SECONDS - RENEW_SECONDS) * 1000);
    const renewedEpoch = new Date(renewAt + 1000);
    const renewed = snapshot(renewedEpoch, first.key, first.zone);
    expect(renewed.zone.signed?.made).toBe(first.zone.signed?.made);
    const rrsig = parseRrsig(renewed.zone.signed?.rrsigs.get('www')?.get(1) as Uint8Array);
    expect(rrsig.expiration).toBe(Math.floor(renewedEpoch.getTime() / 1000) + VALIDITY_SECONDS);
  });

  it('dates every signature from the epoch, not the clock: signed again later from the same epoch, nothing changes', () => {
    const first = snapshot(start);
    const again = snapshot(start, first.key, undefined);
    const dates = (z: ZoneSnapshot) => (z.signed?.chain ?? []).flatMap((rel) => [...(z.signed?.rrsigs.get(rel)?.values() ?? [])].map((r) => [parseRrsig(r).inception, parseRrsig(r).expiration]));
    expect(dates(again.zone)).toEqual(dates(first.zone));
    expect(new Set(dates(first.zone).map((d) => d.join()))).toHaveLength(1);
  });

  it('never reuses signatures made with another key', () => {
    const first = snapshot(start);
    const again = snapshot(start, storedKey(), first.zone);
    expect(again.zone.signed?.made).toBe(first.zone.signed?.made);
    expect(fromBase64(first.key.public_key)).toHaveLength(64);
  });
});
