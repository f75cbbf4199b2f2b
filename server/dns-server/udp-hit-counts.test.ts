import { createRequire } from 'node:module';
import * as dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { table } from './answer-table.ts';
import { packetCache } from './packet-cache.ts';
import type { Tally } from './query-counts.ts';
import { nameServerSettings } from './server.ts';
import { compileThreadZone } from './thread-zone.ts';
import { buildSnapshot } from './zone-snapshot.ts';

const { hitCounts } = createRequire(import.meta.url)('./udp-hit-counts.cjs') as {
  hitCounts(): { readonly empty: boolean; count(t: unknown): boolean; countZone(z: unknown): boolean; take(): { counts: Array<[Tally, number]>; zones: Buffer | null } };
};
const { readTallies } = createRequire(import.meta.url)('./thread-zone.cjs') as { readTallies(b: Buffer): Array<[Tally, number]> };
const { zoneAnswerInto, answerReader } = createRequire(import.meta.url)('./udp-answer.cjs') as {
  answerReader(t: unknown, secrets: null): unknown;
  zoneAnswerInto(r: unknown, z: unknown, q: Buffer, n: number, ip: null, now: number, out: Buffer): number;
};
const { zoneReader } = createRequire(import.meta.url)('./thread-zone.cjs') as { zoneReader(t: unknown): unknown };

describe("a UDP thread's hit counts", () => {
  it('counts each hit once under its tally, says when its arrays are full, and keeps the tally of an entry evicted before the counts go', () => {
    const cache = packetCache<Tally | null>([], 256 * 1024);
    const queries = Array.from({ length: 1100 }, (_, i) => dnsPacket.encode({ id: 1, type: 'query', flags: 0, questions: [{ name: `h${i}.count.test`, type: 'A' }] }));
    const tallyOf = (i: number): Tally => ({ zone: 'count.test', name: `h${i}`, type: 'A', rcode: 'NOERROR', dnssecOk: false });
    const reader = table.openTable(cache.table);
    const hits = hitCounts();
    const counted = new Map<string, number>();
    const take = () => {
      for (const [tally, n] of hits.take().counts) counted.set(tally.name, (counted.get(tally.name) ?? 0) + n);
    };
    let full = 0;
    for (const [i, q] of queries.entries()) {
      cache.set(q, { udp: q, full: q, zone: 'count.test', meta: tallyOf(i) }, cache.begin());
      // Asked i % 3 + 1 times, as a thread finds it.
      for (let k = 0; k <= i % 3; k += 1) {
        expect(table.find(reader, q, q.length)).toBe(true);
        if (hits.count(reader)) continue;
        full += 1;
        take();
        expect(hits.count(reader)).toBe(true);
      }
    }
    // 1,100 entries do not fit one period's 1,024, and a 256 KiB table has evicted the first ones meanwhile.
    expect(full).toBe(1);
    expect(cache.lookup(queries[0])).toBeUndefined();
    take();
    expect(hits.empty).toBe(true);
    expect(queries.map((_, i) => counted.get(`h${i}`))).toEqual(queries.map((_, i) => (i % 3) + 1));
  });

  it('counts the answers written from a compiled zone per question (name, type, DO), each under its own tally', () => {
    const cache = packetCache<Tally | null>();
    const settings = nameServerSettings(['ns1.namefi.test'], { forwardAddresses: [] });
    const snapshot = buildSnapshot('tally.test', { serial: 1, version: 'v1', parked: false, forwarding: false }, [{ name: 'www', type: 'A', ttl: 300, rdata: '192.0.2.1' }], settings);
    cache.keepZone('tally.test', () => compileThreadZone(snapshot), cache.begin());
    const view = table.openTable(cache.table);
    const reader = answerReader(view, null);
    const zone = zoneReader(view);
    const hits = hitCounts();
    const asked: Array<[string, string, boolean, number]> = [['www.tally.test', 'A', false, 3], ['WWW.tally.test', 'A', true, 2], ['tally.test', 'TXT', false, 1], ['www.tally.test', 'MX', false, 4], ['Nope.tally.test', 'A', false, 2]];
    for (const [name, type, dnssecOk, times] of asked) {
      const q = dnsPacket.encode({ id: 1, type: 'query', questions: [{ name, type: type as 'A' }], additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0 } as never] });
      for (let k = 0; k < times; k += 1) {
        expect(zoneAnswerInto(reader, zone, q, q.length, null, 0, Buffer.alloc(1300))).toBeGreaterThan(0);
        expect(hits.countZone(zone)).toBe(true);
      }
    }
    const { counts, zones } = hits.take();
    expect(counts).toEqual([]);
    const counted = readTallies(zones as Buffer).map(([tally, n]) => `${tally.name} ${tally.type} ${tally.rcode} ${tally.dnssecOk} ${n}`);
    expect(counted.sort()).toEqual(['@ TXT NODATA false 1', 'nope A NXDOMAIN false 2', 'www A NOERROR false 3', 'www A NOERROR true 2', 'www MX NODATA false 4'].sort());
  });
});
