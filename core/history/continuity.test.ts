import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '../wire/dns.ts';
import type { HistoryEntry, RecordChange } from '../wire/history.ts';
import { continuityProblems } from './continuity.ts';

const AT = '2026-11-25T10:00:00.000Z';
const rec = (rdata: string, updatedAt = AT): DnsRecord => ({ id: 'r1', zoneName: 'example.com', name: 'www', type: 'A', class: 'IN', ttl: 300, rdata, metadata: null, createdAt: AT, updatedAt });
const entry = (serial: number, ...changes: RecordChange[]): HistoryEntry => ({
  id: String(serial), zoneName: 'example.com', serial, at: AT, operation: 'updateDnsRecord', actor: { wallet: '0xa1', account: null, via: 'api-key' }, changes,
});

describe('continuityProblems', () => {
  const made = entry(2, { op: 'create', before: null, after: rec('192.0.2.1') });
  const edited = entry(3, { op: 'update', before: rec('192.0.2.1'), after: rec('192.0.2.2', '2026-11-25T10:01:00.000Z') });
  const gone = entry(4, { op: 'delete', before: rec('192.0.2.2', '2026-11-25T10:01:00.000Z'), after: null });

  it('finds nothing wrong in a history as written', () => {
    expect(continuityProblems([made, edited, gone])).toEqual([]);
  });

  it('names an entry whose before is not what the previous one left, and serials out of order', () => {
    const forged = entry(3, { op: 'update', before: rec('198.51.100.9'), after: rec('192.0.2.2', '2026-11-25T10:01:00.000Z') });
    expect(continuityProblems([made, forged, gone])).toEqual(['record r1 at serial 3 does not start from where serial 2 left it']);
    expect(continuityProblems([made, gone])).toEqual(['record r1 at serial 4 does not start from where serial 2 left it']);
    expect(continuityProblems([edited, made])).toEqual(['serial 2 (entry 2) does not follow serial 3', 'record r1 at serial 2 does not start from where serial 3 left it']);
  });

  it('lets an entry that changes no record and leaves the serial (access granted or revoked) repeat it, and no other', () => {
    const access = { action: 'grant' as const, grantId: 'g1', grantee: '0xb2', role: 'editor' as const, names: ['www'], types: ['A'], expiresAt: AT };
    const granted: HistoryEntry = { ...entry(2), id: 'g', operation: 'grantZoneAccess', access };
    expect(continuityProblems([made, granted, edited])).toEqual([]);
    expect(continuityProblems([made, { ...made, id: 'again', changes: [] }])).toEqual(['serial 2 (entry again) does not follow serial 2']);
  });
});
