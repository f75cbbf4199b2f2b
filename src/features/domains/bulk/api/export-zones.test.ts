import { describe, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { parseZoneFile } from '#core/dns/zone-file.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { exportZones } from './export-zones.ts';

const record = (zoneName: string, name: string, type: DnsRecord['type'], rdata: string, managed = false): DnsRecord => ({
  id: crypto.randomUUID(), zoneName, name, type, class: 'IN', ttl: 300, rdata, metadata: managed ? { managed: true, managedBy: 'parking' } : null, createdAt: '', updatedAt: '',
});

describe('exporting every zone', () => {
  it('makes one zip with a BIND file per domain, its own records only, which reads back', async () => {
    const zones: Record<string, DnsRecord[]> = {
      'a.com': [record('a.com', '@', 'A', '34.123.0.161', true), record('a.com', 'www', 'CNAME', 'a.com.')],
      'b.org': [record('b.org', '@', 'MX', '10 mail.b.org.'), record('b.org', '@', 'TXT', '"v=spf1 -all"')],
    };
    const api = { call: async (_id: string, args: { query: { zoneName: string } }) => zones[args.query.zoneName] } as unknown as Api;
    const progress: number[] = [];
    const blob = await exportZones(api, ['a.com', 'b.org'], (n) => progress.push(n));
    const files = unzipSync(new Uint8Array(await blob.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(['a.com.zone', 'b.org.zone']);
    expect(progress).toEqual([1, 2]);
    const a = parseZoneFile(strFromU8(files['a.com.zone']), { origin: 'a.com' });
    expect(a.records.map((r) => `${r.name} ${r.type} ${r.rdata}`)).toEqual(['www CNAME a.com.']);
    const b = parseZoneFile(strFromU8(files['b.org.zone']), { origin: 'b.org' });
    expect(b.records.map((r) => `${r.name} ${r.type} ${r.rdata}`).sort()).toEqual(['@ MX 10 mail.b.org.', '@ TXT "v=spf1 -all"']);
  });
});
