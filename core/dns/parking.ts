import { keccak256, toHex } from 'viem';
import type { ListedType, RecordType } from '../wire/dns.ts';
import type { RecordLike } from './types.ts';

export const PARKING_TTL = 60;

/** The apex record types the parking records take the place of when parking overrides existing records. */
export const PARKING_REPLACES: RecordType[] = ['A', 'AAAA', 'CAA'];

const PARKING_CONTENT: Array<{ type: RecordType; rdata: string }> = [
  { type: 'A', rdata: '34.123.0.161' },
  { type: 'AAAA', rdata: '2600:1900:4000:1102:8000::' },
  { type: 'CAA', rdata: '0 issue "letsencrypt.org"' },
  { type: 'CAA', rdata: '0 issue "zerossl.com"' },
];

/**
 * A stable id in UUID form (version 5 style: name-based, with the RFC 4122 variant) derived from a record's
 * content, so that every reader of a parked zone names its managed records alike.
 */
export function contentId(zoneName: string, name: string, type: ListedType, rdata: string): string {
  const hex = keccak256(toHex(`${zoneName.toLowerCase()}|${name}|${type}|${rdata}`)).slice(2, 34).split('');
  hex[12] = '5';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The managed records a parked zone serves at its apex. */
export function parkingRecords(zoneName: string): Array<RecordLike & { id: string; managed: true; managedBy: 'parking' }> {
  return PARKING_CONTENT.map(({ type, rdata }) => ({
    id: contentId(zoneName, '@', type, rdata),
    name: '@',
    type,
    rdata,
    ttl: PARKING_TTL,
    managed: true as const,
    managedBy: 'parking' as const,
  }));
}

export function isParkingRecord(record: Pick<RecordLike, 'name' | 'type' | 'rdata'>): boolean {
  return record.name === '@' && PARKING_CONTENT.some((p) => p.type === record.type && p.rdata === record.rdata);
}

/** An address record at the apex (`@`, or the empty name the wire also accepts for it): what parking serves itself. */
export function isApexAddress(record: Pick<RecordLike, 'name' | 'type'>): boolean {
  return (record.name === '@' || record.name === '') && (record.type === 'A' || record.type === 'AAAA');
}

/** A new domain starts parked unless its registration brings an apex A or AAAA record (the checkout and the service agree). */
export function startsParked(initialRecords: readonly Pick<RecordLike, 'name' | 'type'>[]): boolean {
  return !initialRecords.some(isApexAddress);
}
