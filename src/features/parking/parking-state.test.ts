import { describe, expect, it } from 'vitest';
import { parkingRecords } from '#core/dns/parking.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import { isParkedZone } from './parking-state.ts';

const at = '2026-01-01T00:00:00.000Z';
function rec(name: string, type: DnsRecord['type'], rdata: string, metadata: unknown = null): DnsRecord {
  return { id: `${name}-${type}-${rdata}`, zoneName: 'shop.com', name, type, class: 'IN', ttl: 3600, rdata, metadata, createdAt: at, updatedAt: at };
}
// What GET /dns/records lists for a parked zone: the parking records, managed by parking.
const managedParking = parkingRecords('shop.com').map((r) => rec(r.name, r.type, r.rdata, { managed: true, managedBy: 'parking' }));

describe('isParkedZone', () => {
  it('is parked when the zone lists its managed parking records, beside the owner’s own or alone', () => {
    expect(isParkedZone(managedParking)).toBe(true);
    expect(isParkedZone([...managedParking, rec('@', 'A', '192.0.2.7'), rec('@', 'MX', '10 mail.shop.com.')])).toBe(true);
  });

  it('is not parked with only the owner’s records, even ones that look like the parking page’s', () => {
    expect(isParkedZone([])).toBe(false);
    expect(isParkedZone([rec('@', 'A', '34.123.0.161'), rec('www', 'CNAME', 'shop.com.', {})])).toBe(false);
  });

  it('does not count records managed by something other than parking', () => {
    expect(isParkedZone([rec('@', 'TXT', '"verify"', { managed: true, managedBy: 'mail' })])).toBe(false);
    expect(isParkedZone([rec('@', 'A', '34.123.0.161', { managed: false, managedBy: 'parking' })])).toBe(false);
  });
});
