/**
 * `npm run bench:dnssec`: what signing costs a change of a signed zone, at 10,000 and 100,000 records. The name
 * server signs a zone when it loads the zone after a change (server/dnssec/sign-zone.ts), keeping the signatures of
 * the sets that did not change: this prints the first signing of the whole zone, and the signing after one new
 * record (the new set, its NSEC, its neighbour's NSEC and the SOA), in memory, without the database read.
 */
import { generateKeyPairSync } from 'node:crypto';
import { buildSnapshot, DEFAULT_SOA, type NameServerSettings, type ZoneSnapshot } from '../server/dns-server/zone-snapshot.ts';
import type { RecordType } from '#core/wire/dns.ts';

const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = publicKey.export({ format: 'jwk' });
const key = {
  public_key: Buffer.concat([Buffer.from(jwk.x as string, 'base64url'), Buffer.from(jwk.y as string, 'base64url')]).toString('base64'),
  private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
};
const settings: NameServerSettings = { nameservers: ['ns1.namefi.test.', 'ns2.namefi.test.'], soa: DEFAULT_SOA, nsTtl: 3600, forwardAddresses: [] };
const zone = 'bench-dnssec.com';

function records(count: number): Array<{ name: string; type: RecordType; ttl: number; rdata: string }> {
  return Array.from({ length: count }, (_, i) => ({ name: `host${i}`, type: 'A' as const, ttl: 300, rdata: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }));
}

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

const epoch = new Date();
for (const count of (process.env.BENCH_DNSSEC_MEMORY === "0" ? [] : [10_000, 100_000])) {
  const base = records(count);
  let start = process.hrtime.bigint();
  const unsigned = buildSnapshot(zone, { serial: 1, version: 'a', parked: false, forwarding: false }, base, settings);
  const unsignedMs = ms(start);
  start = process.hrtime.bigint();
  const first: ZoneSnapshot = buildSnapshot(zone, { serial: 1, version: 'a', parked: false, forwarding: false }, base, settings, { key, epoch });
  const firstMs = ms(start);
  const changes: number[] = [];
  let previous = first;
  for (let i = 0; i < 5; i += 1) {
    const changed = [...base, { name: `added${i}`, type: 'TXT' as const, ttl: 60, rdata: `"change ${i}"` }];
    start = process.hrtime.bigint();
    previous = buildSnapshot(zone, { serial: 2 + i, version: `b${i}`, parked: false, forwarding: false }, changed, settings, { key, epoch, previous: previous.signed ? { nodes: previous.nodes, signed: previous.signed } : undefined });
    changes.push(ms(start));
  }
  changes.sort((a, b) => a - b);
  console.log(
    `${count.toLocaleString('en-US')} records: unsigned snapshot ${unsignedMs.toFixed(0)} ms; ` +
      `signed from scratch ${firstMs.toFixed(0)} ms (${first.signed?.made} signatures); ` +
      `after one change, median of 5: ${changes[2].toFixed(0)} ms (${previous.signed?.made} new signatures)`,
  );
  void unsigned;
}

// The service path: the same zone in a running service, the figures issue 37 asks for, each beside its goal.
if (process.env.BENCH_DNSSEC_SERVICE !== '0') {
  console.log(`service path (BENCH_DNSSEC_SERVICE=0 skips it):`);
  const { benchService } = await import('./bench-dnssec-service.ts');
  if (!(await benchService())) process.exitCode = 1;
}
