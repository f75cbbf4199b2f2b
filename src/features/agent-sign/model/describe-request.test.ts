import { describe, expect, it } from 'vitest';
import { decodeAgentRequest, encodeAgentRequest } from '#core/agent-sign.ts';
import { describeAgentRequest } from './describe-request.ts';

describe('an agent’s prepared change', () => {
  it('travels in the link and is said in words, one line per record', () => {
    const request = { operationId: 'batchCreateDnsRecords', payload: { zoneName: 'example.com', records: [{ name: '@', type: 'TXT', rdata: '"hello é"', ttl: 300 }, { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 60 }] } };
    const decoded = decodeAgentRequest(`#${encodeAgentRequest(request)}`);
    expect(decoded).toEqual({ ok: true, request });
    expect(describeAgentRequest(request)).toEqual({
      title: 'Create records in one zone, all or nothing',
      zone: 'example.com',
      lines: ['Add a TXT record at example.com: "hello é" (TTL 300 s)', 'Add a A record at www.example.com: 192.0.2.1 (TTL 60 s)'],
    });
    expect(describeAgentRequest({ operationId: 'toggleDomainParking', payload: { normalizedDomainName: 'example.com', enableParking: true, overrideExistingRecords: false } }).lines).toEqual([
      'normalizedDomainName: example.com',
      'enableParking: true',
      'overrideExistingRecords: false',
    ]);
  });

  it('refuses a damaged link, an operation no wallet signs, and a payload its schema refuses', () => {
    expect(decodeAgentRequest('#not-base64!')).toMatchObject({ ok: false });
    expect(decodeAgentRequest(`#${encodeAgentRequest({ operationId: 'getDnsRecords', payload: {} })}`)).toMatchObject({ ok: false, problem: expect.stringContaining('not a change') });
    expect(decodeAgentRequest(`#${encodeAgentRequest({ operationId: 'batchCreateDnsRecords', payload: { zoneName: 'example.com', records: 'x' } })}`)).toMatchObject({ ok: false, problem: expect.stringContaining('records') });
  });
});
