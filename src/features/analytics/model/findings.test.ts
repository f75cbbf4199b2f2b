import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '#core/wire/dns.ts';
import type { ZoneAnalytics } from '#core/wire/analytics.ts';
import { chartOf, stackedColumns } from './chart.ts';
import { findingsOf } from './findings.ts';

const window = (over: Partial<ZoneAnalytics> = {}): ZoneAnalytics => ({
  since: '2026-11-26T08:00:00.000Z',
  until: '2026-11-26T11:00:00.000Z',
  step: '1h',
  series: [
    { at: '2026-11-26T09:00:00.000Z', total: 10, byType: { A: 8, MX: 2 }, byRcode: { NOERROR: 6, NXDOMAIN: 4 }, byTransport: { udp: 10 }, dnssecOk: 1 },
  ],
  topNames: [
    { name: 'mail', type: 'A', rcode: 'NOERROR', count: 4 },
    { name: 'mial', type: 'A', rcode: 'NXDOMAIN', count: 3 },
    { name: 'x', type: 'A', rcode: 'NXDOMAIN', count: 1 },
  ],
  ...over,
});
const record = (name: string, type: DnsRecord['type'], createdAt = '2026-01-01T00:00:00.000Z', metadata: unknown = null): DnsRecord => ({
  id: `${name}-${type}`, zoneName: 'example.com', name, type, class: 'IN', ttl: 300, rdata: '192.0.2.1', metadata, createdAt, updatedAt: createdAt,
});

describe('analytics findings', () => {
  it('names a misspelt name answered NXDOMAIN often, offering the record, but not a one-off', () => {
    const found = findingsOf('example.com', window(), undefined, undefined);
    expect(found[0]).toEqual({
      kind: 'nxdomain', name: 'mial', type: 'A', count: 3, add: { name: 'mial', type: 'A' },
      text: 'People ask for mial.example.com, which has no record (3 queries answered NXDOMAIN): a typo somewhere, or a missing record?',
    });
    expect(found.filter((f) => f.kind === 'nxdomain')).toHaveLength(1);
  });

  it('says which old records nobody asked for in 30 days, leaving out new ones, managed ones and service names', () => {
    const month = window({ since: '2026-10-27T00:00:00.000Z', until: '2026-11-26T00:00:00.000Z', step: '1d' });
    const records = [record('mail', 'A'), record('old', 'TXT'), record('new', 'A', '2026-11-20T00:00:00.000Z'), record('@', 'A', undefined, { managed: true, managedBy: 'parking' }), record('_dmarc', 'TXT')];
    const unasked = findingsOf('example.com', window(), month, records).filter((f) => f.kind === 'unasked');
    expect(unasked.map((f) => f.text)).toEqual(['Nobody asked for the TXT record of old.example.com in the last 30 days.']);
  });

  it('gives the DNSSEC-asking share', () => {
    expect(findingsOf('example.com', window(), undefined, undefined).at(-1)?.text).toBe('10% of queries asked for DNSSEC (1 query of 10 set the DO bit).');
  });
});

describe('the chart', () => {
  it('has a bar for every step of the window, zero where nothing was counted, stacked by answer in the answers\u2019 order', () => {
    const chart = chartOf(window(), 'rcode');
    expect(chart.keys).toEqual(['NOERROR', 'NXDOMAIN']);
    expect(chart.bars.map((b) => [b.total, b.parts])).toEqual([
      [0, [0, 0]],
      [10, [6, 4]],
      [0, [0, 0]],
    ]);
    expect(chart.max).toBe(10);
    expect(chartOf(window(), 'type').keys).toEqual(['A', 'MX']);
  });
});

describe('stackedColumns', () => {
  it('gives the plot running totals, the top of the stack first, so each visible slice is its own count', () => {
    const chart = chartOf(window(), 'type');
    const { keys, columns } = stackedColumns(chart);
    expect(keys).toEqual(['MX', 'A']);
    const at = chart.bars.map((b) => b.at / 1000);
    expect(columns[0]).toEqual(at);
    // The hour with queries: A 8 (the bottom slice), MX 2 on top of it (10 in all); the empty hours are 0.
    const hour = chart.bars.findIndex((b) => b.total === 10);
    expect(columns[1][hour]).toBe(10);
    expect(columns[2][hour]).toBe(8);
    expect(columns[1].filter((_, i) => i !== hour).every((v) => v === 0)).toBe(true);
  });
});

