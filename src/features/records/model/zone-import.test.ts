import { describe, expect, it } from 'vitest';
import { parseZoneFile, printZoneFile } from '#core/dns/zone-file.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import { planImport } from './zone-import.ts';
import { listedRecordLike } from '#core/dns/listed.ts';

const at = '2026-01-01T00:00:00.000Z';
const rec = (id: string, name: string, type: DnsRecord['type'], rdata: string, managed = false): DnsRecord => ({
  id, zoneName: 'example.com', name, type, class: 'IN', ttl: 3600, rdata, metadata: managed ? { managed: true, managedBy: 'parking' } : null, createdAt: at, updatedAt: at,
});

describe('zone file import into a change set', () => {
  const zone = [rec('1', 'www', 'A', '192.0.2.1'), rec('p', '@', 'A', '34.123.0.161', true)];
  const file = [
    '$ORIGIN example.com.',
    '$TTL 1h',
    '@        IN SOA ns1.example.net. hostmaster.example.com. 1 7200 3600 1209600 3600',
    '@        IN NS  ns1.example.net.',
    '@        IN A   34.123.0.161 ; parking',
    'www      IN A   192.0.2.1',
    'mail 1d  IN A   192.0.2.25',
    '@           MX  10 mail',
    '@           TXT "v=spf1 " "-all"',
    'bad      IN A   999.1.1.1',
  ].join('\n');

  it('adds only new records, notes what it leaves out and lists errors with line numbers', () => {
    const parsed = parseZoneFile(file, { origin: 'example.com' });
    const plan = planImport(parsed.records, zone, parsed);
    expect(plan.creates).toEqual([
      { name: 'mail', type: 'A', rdata: '192.0.2.25', ttl: 86400 },
      { name: '@', type: 'MX', rdata: '10 mail.example.com.', ttl: 3600 },
      { name: '@', type: 'TXT', rdata: '"v=spf1 " "-all"', ttl: 3600 },
    ]);
    const reasons = plan.notes.map((n) => n.reason).join('\n');
    expect(reasons).toMatch(/SOA/);
    expect(reasons).toMatch(/parking/);
    expect(reasons).toMatch(/Already in the zone/);
    expect(plan.errors.map((e) => e.line)).toEqual([10]);
  });

  it('passes on the warnings of the file: unequal TTLs in a set and unknown CAA tags', () => {
    const parsed = parseZoneFile('$TTL 300\nshop A 192.0.2.1\nshop 60 A 192.0.2.2\n@ CAA 0 policy "x"', { origin: 'example.com' });
    const plan = planImport(parsed.records, zone, parsed);
    expect(plan.warnings.map((w) => w.line)).toEqual([3, 4]);
    expect(plan.creates.map((c) => c.ttl)).toEqual([300, 300, 300]);
  });

  it('an exported zone imports back as nothing new', () => {
    const text = printZoneFile('example.com', zone.map(listedRecordLike));
    const parsed = parseZoneFile(text, { origin: 'example.com' });
    expect(planImport(parsed.records, zone, parsed).creates).toEqual([]);
  });
});
