import { describe, expect, it } from 'vitest';
import { validateRdata } from './rdata.ts';
import { contentId, isParkingRecord, PARKING_REPLACES, PARKING_TTL, parkingRecords, startsParked } from './parking.ts';

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('parkingRecords', () => {
  it('serves the parking address and CAA records at the apex with a TTL of 60', () => {
    const records = parkingRecords('example.com');
    expect(records.map(({ name, type, rdata, ttl, managed }) => ({ name, type, rdata, ttl, managed }))).toEqual([
      { name: '@', type: 'A', rdata: '34.123.0.161', ttl: 60, managed: true },
      { name: '@', type: 'AAAA', rdata: '2600:1900:4000:1102:8000::', ttl: 60, managed: true },
      { name: '@', type: 'CAA', rdata: '0 issue "letsencrypt.org"', ttl: 60, managed: true },
      { name: '@', type: 'CAA', rdata: '0 issue "zerossl.com"', ttl: 60, managed: true },
    ]);
    expect(PARKING_TTL).toBe(60);
    expect(PARKING_REPLACES).toEqual(['A', 'AAAA', 'CAA']);
  });

  it('holds record data already in its stored form', () => {
    for (const record of parkingRecords('example.com')) expect(validateRdata(record.type, record.rdata)).toEqual({ ok: true, value: record.rdata });
  });

  it('gives stable, distinct, UUID-formatted ids derived from the content', () => {
    const first = parkingRecords('example.com').map((r) => r.id);
    expect(parkingRecords('example.com').map((r) => r.id)).toEqual(first);
    expect(parkingRecords('EXAMPLE.com').map((r) => r.id)).toEqual(first);
    expect(new Set(first).size).toBe(4);
    for (const id of first) expect(id).toMatch(UUID_V5);
    const other = parkingRecords('example.org').map((r) => r.id);
    expect(other.some((id) => first.includes(id))).toBe(false);
    expect(first[0]).toBe(contentId('example.com', '@', 'A', '34.123.0.161'));
    // Pinned: the service and the dashboard must derive the very same id.
    expect(first[0]).toBe('40bc8985-9236-5234-b5c6-61c4a381f901');
  });

  it('recognises parking content', () => {
    expect(isParkingRecord({ name: '@', type: 'A', rdata: '34.123.0.161' })).toBe(true);
    expect(isParkingRecord({ name: 'www', type: 'A', rdata: '34.123.0.161' })).toBe(false);
    expect(isParkingRecord({ name: '@', type: 'A', rdata: '192.0.2.1' })).toBe(false);
  });
});

describe('startsParked', () => {
  it('parks a new domain unless its records bring an apex A or AAAA', () => {
    expect(startsParked([])).toBe(true);
    expect(startsParked([{ name: 'www', type: 'A' }, { name: '@', type: 'MX' }, { name: '@', type: 'CNAME' }])).toBe(true);
    expect(startsParked([{ name: '@', type: 'A' }])).toBe(false);
    expect(startsParked([{ name: '@', type: 'AAAA' }])).toBe(false);
    expect(startsParked([{ name: '', type: 'A' }])).toBe(false);
  });
});
