import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '#core/wire/dns.ts';
import { parkingImpact, parkingSigningLines } from './parking-impact.ts';

const at = '2026-01-01T00:00:00.000Z';
function rec(name: string, type: DnsRecord['type'], rdata: string, metadata: unknown = null): DnsRecord {
  return { id: `${name}-${type}-${rdata}`, zoneName: 'shop.com', name, type, class: 'IN', ttl: 3600, rdata, metadata, createdAt: at, updatedAt: at };
}

describe('parkingImpact', () => {
  it('lists stored apex A, AAAA and CAA records, not others nor managed ones', () => {
    const impact = parkingImpact('shop.com', [
      rec('@', 'A', '192.0.2.1'),
      rec('@', 'AAAA', '2001:db8::1'),
      rec('@', 'CAA', '0 issue "pki.goog"'),
      rec('www', 'A', '192.0.2.2'),
      rec('@', 'MX', '10 mail.shop.com.'),
      rec('@', 'TXT', '"v=spf1 -all"'),
      rec('@', 'A', '34.123.0.161', { managed: true, managedBy: 'parking' }),
    ]);
    expect(impact.affected.map((r) => `${r.type} ${r.rdata}`)).toEqual(['A 192.0.2.1', 'AAAA 2001:db8::1', 'CAA 0 issue "pki.goog"']);
    expect(impact.added.map((r) => r.type)).toEqual(['A', 'AAAA', 'CAA', 'CAA']);
  });
  it('finds nothing to replace in an empty zone', () => {
    expect(parkingImpact('shop.com', []).affected).toEqual([]);
  });
});

describe('parkingSigningLines', () => {
  it('says what will be signed for each choice', () => {
    expect(parkingSigningLines('shop.com', true, true, 2)[1]).toMatch(/Delete your 2 apex/);
    expect(parkingSigningLines('shop.com', true, false, 1)[1]).toMatch(/Keep your 1 apex A\/AAAA\/CAA record beside/);
    expect(parkingSigningLines('shop.com', true, false, 0)).toHaveLength(1);
    expect(parkingSigningLines('shop.com', false, false, 0)[0]).toMatch(/Stop parking/);
  });
});
