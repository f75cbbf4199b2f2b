import { describe, expect, it } from 'vitest';
import { TYPE_REGISTRY, UNSIGNED_BUT_ACCEPTED } from './registry.ts';
import { unsignedFields } from './unsigned-fields.ts';

describe('unsignedFields', () => {
  it('finds nothing when every field is signed', () => {
    expect(unsignedFields(TYPE_REGISTRY, 'CreateTypedDnsRecord', { zoneName: 'a.com', name: 'www', type: 'A', rdata: '1.2.3.4', ttl: 60 })).toEqual([]);
  });

  it('names a top-level field the struct does not sign', () => {
    const payload = { normalizedDomainName: 'a.com', durationInYears: 1, nftReceivingWallet: { walletAddress: '0x1', chainId: 1 } };
    expect(unsignedFields(TYPE_REGISTRY, 'InstantRegisterDomainDefaultWallet', payload)).toEqual(['nftReceivingWallet']);
  });

  it('names fields inside nested structs and arrays of structs, with their index', () => {
    expect(unsignedFields(TYPE_REGISTRY, 'InstantRegisterDomain', { normalizedDomainName: 'a.com', nftReceivingWallet: { walletAddress: '0x1', chainId: 1, note: 'x' } })).toEqual([
      'nftReceivingWallet.note',
    ]);
    const records = [{ id: 'a', name: '@', rdata: '1.2.3.4', ttl: 60 }, { id: 'b', name: '@', type: 'NS', rdata: 'x.', ttl: 60, metadata: {} }];
    expect(unsignedFields(TYPE_REGISTRY, 'UpdateRecords', { zoneName: 'a.com', records })).toEqual(['records.1.type', 'records.1.metadata']);
  });

  it('takes `type` unsigned only where the seed\u2019s untyped record structs need it, and only at the top', () => {
    const payload = { zoneName: 'a.com', name: '@', type: 'TXT', rdata: '"x"', ttl: 60 };
    expect(unsignedFields(TYPE_REGISTRY, 'CreateDnsRecord', payload, UNSIGNED_BUT_ACCEPTED.CreateDnsRecordEnvelope)).toEqual([]);
    expect(unsignedFields(TYPE_REGISTRY, 'CreateDnsRecord', { ...payload, class: 'IN' }, UNSIGNED_BUT_ACCEPTED.CreateDnsRecordEnvelope)).toEqual(['class']);
    expect(unsignedFields(TYPE_REGISTRY, 'CreateDnsRecord', payload)).toEqual(['type']);
  });

  it('reports prototype keys as fields and does not descend into deep unsigned JSON', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const payload = JSON.parse(`{"recordsIds":[],"zoneName":"a.com","__proto__":{"x":1},"constructor":1}`) as Record<string, unknown>;
    payload.deep = deep;
    expect(unsignedFields(TYPE_REGISTRY, 'DeleteRecords', payload)).toEqual(['__proto__', 'constructor', 'deep']);
  });

  it('leaves values of the wrong shape to the input schema', () => {
    expect(unsignedFields(TYPE_REGISTRY, 'UpdateRecords', { zoneName: 'a.com', records: 'x' })).toEqual([]);
    expect(unsignedFields(TYPE_REGISTRY, 'UpdateRecords', { zoneName: 'a.com', records: [null, 1, [{ bad: 1 }]] })).toEqual([]);
  });
});
