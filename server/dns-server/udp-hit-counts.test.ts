import { createRequire } from 'node:module';
import * as dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { table } from './answer-table.ts';
import { packetCache } from './packet-cache.ts';
import type { Tally } from './query-counts.ts';

const { hitCounts } = createRequire(import.meta.url)('./udp-hit-counts.cjs') as {
  hitCounts(): { readonly empty: boolean; count(t: unknown): boolean; take(): Array<[Tally, number]> };
};

describe("a UDP thread's hit counts", () => {
  it('counts each hit once under its tally, says when its arrays are full, and keeps the tally of an entry evicted before the counts go', () => {
    const cache = packetCache<Tally | null>([], 256 * 1024);
    const queries = Array.from({ length: 1100 }, (_, i) => dnsPacket.encode({ id: 1, type: 'query', flags: 0, questions: [{ name: `h${i}.count.test`, type: 'A' }] }));
    const tallyOf = (i: number): Tally => ({ zone: 'count.test', name: `h${i}`, type: 'A', rcode: 'NOERROR', dnssecOk: false });
    const reader = table.openTable(cache.table);
    const hits = hitCounts();
    const counted = new Map<string, number>();
    const take = () => {
      for (const [tally, n] of hits.take()) counted.set(tally.name, (counted.get(tally.name) ?? 0) + n);
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
});
