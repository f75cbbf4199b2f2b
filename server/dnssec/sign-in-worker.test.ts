import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalRdata, typeNumber } from '#core/dns/dnssec.ts';
import { verifyRrsig } from '#core/dns/rrsig-verify.ts';
import { buildSnapshot, buildSnapshotInSlices, DEFAULT_SOA, type NameServerSettings } from '../dns-server/zone-snapshot.ts';
import { publicView } from './keys.ts';
import type { FreshSignature } from './sign-zone.ts';
import { linesOf } from './sign-in-worker.ts';

function newZoneKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from(jwk.x as string, 'base64url'), Buffer.from(jwk.y as string, 'base64url')]);
  return { public_key: point.toString('base64'), private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64') };
}

const ZONE = 'worker.example';
const EPOCH = new Date('2026-11-25T12:00:00Z');
const settings: NameServerSettings = { nameservers: ['ns1.namefi.test.'], soa: DEFAULT_SOA, nsTtl: 3600, forwardAddresses: [] };
const state = { serial: 3, version: 'v', parked: false, forwarding: false };
// Above the worker threshold (2,000 names), small enough to stay quick.
const records = Array.from({ length: 2100 }, (_, i) => ({ name: `h${i}`, type: 'A' as const, ttl: 300, rdata: `10.0.${i >> 8}.${i & 255}` }));

// Signed once on the event loop, for both tests: what the worker must match, and the store a restart would read.
const key = newZoneKey();
const fresh: FreshSignature[] = [];
const inline = buildSnapshot(ZONE, state, records, settings, { key, epoch: EPOCH, store: { fresh } });

describe('a big zone signed anew on a worker thread (the TypeScript worker loaded through its .mjs entry)', () => {
  it('gives the zone signing on the event loop gives (same NSEC chain), with signatures that verify', async () => {
    let bulk = 0;
    async function* pages() {
      for (let i = 0; i < records.length; i += 1000) yield records.slice(i, i + 1000);
    }
    const inWorker = await buildSnapshotInSlices(ZONE, state, pages(), settings, { key, epoch: EPOCH }, [], () => (bulk += 1));
    expect(bulk).toBe(1);
    expect(inWorker.signed?.chain).toEqual(inline.signed?.chain);
    expect(inWorker.signed?.made).toBe(inline.signed?.made);
    for (const rel of inline.signed?.chain ?? []) expect(inWorker.signed?.nsec.get(rel), rel).toEqual(inline.signed?.nsec.get(rel));
    const dnskeys = [publicView(ZONE, key.public_key).dnskey];
    for (const rel of ['@', 'h0', 'h1234', 'h2099']) {
      const type = rel === '@' ? 'SOA' : 'A';
      const set = inWorker.nodes.get(rel)?.get(type);
      const verdict = await verifyRrsig({
        zone: ZONE, owner: rel === '@' ? ZONE : `${rel}.${ZONE}`, type: typeNumber(type), rdatas: set?.rdatas.map((r) => canonicalRdata(type, r)) ?? [],
        rrsig: inWorker.signed?.rrsigs.get(rel)?.get(typeNumber(type)) as Uint8Array, dnskeys, now: EPOCH,
      });
      expect(verdict, rel).toMatchObject({ ok: true });
    }
  }, 60_000);

  it('signs nothing the store already holds (a restart, another instance): the stored bytes are served', async () => {
    expect(fresh.length).toBeGreaterThan(4000);
    async function* known() {
      for (let i = 0; i < fresh.length; i += 1000) yield fresh.slice(i, i + 1000).map((f) => ({ digest: f.digest.toString('base64'), rrsig: f.rrsig }));
    }
    const again = await buildSnapshotInSlices(ZONE, state, (async function* () { yield records; })(), settings, { key, epoch: EPOCH, store: { fresh: [] }, known }, []);
    expect(again.signed?.made).toBe(0);
    for (const f of fresh.slice(0, 50)) expect(again.signed?.rrsigs.get(f.rel)?.get(f.type)).toEqual(f.rrsig);
  }, 60_000);
});

describe('the names the worker sends back (linesOf)', () => {
  const encode = (names: string[]) => new TextEncoder().encode(names.join('\n')).buffer as ArrayBuffer;

  it('reads back every name, in order, across slices, non-ASCII and an empty last name included', async () => {
    // 2,500 names cross two slice boundaries (1,000 per slice); 1,000 and 2,000 end a slice on the last name.
    for (const count of [1, 999, 1000, 1001, 2000, 2500]) {
      const names = Array.from({ length: count }, (_, i) => (i % 7 === 3 ? `xn--bcher-kva.é${i}` : `h${i}.sub`));
      expect(await linesOf(encode(names))).toEqual(names);
    }
    expect(await linesOf(encode(['a', 'b', '']))).toEqual(['a', 'b', '']);
  });

  it('reads no name from an empty list', async () => {
    expect(await linesOf(new ArrayBuffer(0))).toEqual([]);
  });

  it('lets the event loop run between slices of a long list', async () => {
    const names = Array.from({ length: 5000 }, (_, i) => `name-${i}`);
    let read = false;
    let ranMeanwhile = false;
    setImmediate(() => (ranMeanwhile = !read));
    expect(await linesOf(encode(names))).toHaveLength(5000);
    read = true;
    await new Promise((resolve) => setImmediate(resolve));
    expect(ranMeanwhile, 'a callback queued before the read ran before it ended').toBe(true);
  });
});
