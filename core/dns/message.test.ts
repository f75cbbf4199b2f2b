import * as dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { decodeResponse, encodeQuery, rcodeName } from './message.ts';

describe('encodeQuery and decodeResponse', () => {
  it('writes a query any DNS library reads', () => {
    const packet = dnsPacket.decode(Buffer.from(encodeQuery('www.Example.com.', 'HTTPS', 7)));
    expect(packet).toMatchObject({ id: 7, type: 'query', questions: [{ name: 'www.Example.com', type: 'UNKNOWN_65', class: 'IN' }] });
  });

  it('reads the answers of a response in the stored form', () => {
    const response = dnsPacket.encode({
      type: 'response',
      id: 1,
      flags: 3,
      questions: [{ name: 'www.example.com', type: 'A' }],
      answers: [
        { name: 'www.example.com', type: 'CNAME', ttl: 60, data: 'Example.COM' },
        { name: 'example.com', type: 'A', ttl: 42, data: '192.0.2.1' },
        { name: 'example.com', type: 'TXT', ttl: 5, data: ['a', 'b'] },
        { name: 'example.com', type: 'DNSKEY', ttl: 5, data: { flags: 257, algorithm: 13, key: Buffer.from('abcd') } },
      ],
    });
    const decoded = decodeResponse(Uint8Array.from(response));
    expect(rcodeName(decoded.rcode)).toBe('NXDOMAIN');
    expect(decoded.answers).toEqual([
      { name: 'www.example.com', type: 'CNAME', ttl: 60, rdata: 'example.com.' },
      { name: 'example.com', type: 'A', ttl: 42, rdata: '192.0.2.1' },
      { name: 'example.com', type: 'TXT', ttl: 5, rdata: '"a" "b"' },
    ]);
  });

  it('follows compressed names in owners and in record data, as public resolvers write them', () => {
    // Header, question www.example.com MX, then one answer whose owner and exchange point back into the question.
    const question = [3, ...Buffer.from('www'), 7, ...Buffer.from('example'), 3, ...Buffer.from('com'), 0, 0, 15, 0, 1];
    const answer = [0xc0, 12, 0, 15, 0, 1, 0, 0, 1, 44, 0, 9, 0, 10, 4, ...Buffer.from('mail'), 0xc0, 16];
    const message = Uint8Array.from([0, 1, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0, ...question, ...answer]);
    expect(decodeResponse(message).answers).toEqual([{ name: 'www.example.com', type: 'MX', ttl: 300, rdata: '10 mail.example.com.' }]);
  });

  it('refuses a message shorter than a header and a name that loops', () => {
    expect(() => decodeResponse(Uint8Array.from([0, 1]))).toThrow(RangeError);
    const loop = Uint8Array.from([0, 1, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1]);
    expect(() => decodeResponse(loop)).toThrow(/circles/);
  });
});
