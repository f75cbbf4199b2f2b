import { describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../wire/dns.ts';
import { RDATA_EXAMPLES, validateRdata } from './rdata.ts';
import { parseGenericRdata, rdataFromWire, rdataToWire } from './wire-rdata.ts';

const stored = (type: (typeof RECORD_TYPES)[number], rdata: string) => {
  const result = validateRdata(type, rdata);
  if (!result.ok) throw new Error(result.message);
  return result.value;
};

describe('rdataToWire and rdataFromWire', () => {
  it.each(RECORD_TYPES.map((type) => [type, RDATA_EXAMPLES[type]]))('%s %s comes back as written', (type, rdata) => {
    const back = rdataFromWire(type, rdataToWire(type, rdata));
    expect(back.ok && stored(type, back.value)).toBe(rdata);
  });

  it.each([
    ['A', '192.0.2.1', 'C0000201'],
    ['MX', '10 mail.example.com.', '000A046D61696C076578616D706C6503636F6D00'],
    ['TXT', '"a" "bc"', '0161026263'],
    ['CAA', '0 issue "ca.example"', '0005697373756563612E6578616D706C65'],
    ['HTTPS', '1 . alpn=h2,h3 port=8443', '000100000100060268320268330003000220FB'],
  ] as const)('%s %s is the bytes of its RFC', (type, rdata, hex) => {
    const bytes = rdataToWire(type, rdata);
    expect(Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('').toUpperCase()).toBe(hex);
  });

  it('refuses data that ends early or runs long', () => {
    expect(rdataFromWire('MX', Uint8Array.from([0, 10]))).toMatchObject({ ok: false, message: expect.stringContaining('ends early') });
    expect(rdataFromWire('A', Uint8Array.from([1, 2, 3, 4, 5]))).toMatchObject({ ok: false, message: expect.stringContaining('1 bytes more') });
  });
});

describe('parseGenericRdata', () => {
  it('reads \\# with split hex and checks the length', () => {
    expect(parseGenericRdata(['\\#', '4', 'C000', '0201'])).toEqual({ ok: true, value: Uint8Array.from([192, 0, 2, 1]) });
    expect(parseGenericRdata(['\\#', '3', 'C0000201'])).toMatchObject({ ok: false, message: 'Generic data says 3 bytes but holds 4' });
    expect(parseGenericRdata(['\\#', 'x'])).toMatchObject({ ok: false });
  });
});
