import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { recoverTypedDataAddress } from 'viem';
import { ACCEPTED_PRIMARY_TYPES, PRODUCTION_SIGNING_DOMAIN, TYPE_REGISTRY, typesForMethod } from './registry.ts';
import { buildEnvelope, envelopeTypedData, projectStruct, typesForPayload } from './envelope.ts';
import { UnsignableValuesError } from './signed-values.ts';

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');

describe('envelope signing', () => {
  it('signs an envelope that recovers to the signer with the registry types', async () => {
    const payload = { zoneName: 'example.com', type: 'A', name: 'www', rdata: '192.0.2.1', ttl: 300 };
    const envelope = buildEnvelope('CreateDnsRecordEnvelope', payload);
    expect(envelope.payloadType).toBe('CreateDnsRecord');
    expect(envelope.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    const typed = envelopeTypedData(PRODUCTION_SIGNING_DOMAIN, TYPE_REGISTRY, 'CreateDnsRecordEnvelope', envelope);
    const signature = await account.signTypedData(typed as never);
    const recovered = await recoverTypedDataAddress({ ...(typed as object), signature } as never);
    expect(recovered).toBe(account.address);
  });

  it('signs a tampered payload differently', async () => {
    const envelope = buildEnvelope('RecordSelectEnvelope', { id: 'a', zoneName: 'example.com' });
    const typed = envelopeTypedData(PRODUCTION_SIGNING_DOMAIN, TYPE_REGISTRY, 'RecordSelectEnvelope', envelope);
    const signature = await account.signTypedData(typed as never);
    const tampered = envelopeTypedData(PRODUCTION_SIGNING_DOMAIN, TYPE_REGISTRY, 'RecordSelectEnvelope', {
      ...envelope,
      payload: { id: 'b', zoneName: 'example.com' },
    });
    expect(await recoverTypedDataAddress({ ...(tampered as object), signature } as never)).not.toBe(account.address);
  });

  it('signs a payload without record notes under the structs without them, and one with notes under the full structs', () => {
    const names = (types: Record<string, Array<{ name: string }>>, struct: string) => types[struct].map((f) => f.name).join(',');
    const plain = envelopeTypedData(PRODUCTION_SIGNING_DOMAIN, TYPE_REGISTRY, 'CreateRecordsEnvelope', buildEnvelope('CreateRecordsEnvelope', { zoneName: 'a.com', records: [{ name: '@', type: 'A', rdata: '1.2.3.4', ttl: 60 }] }));
    expect(names(plain.types, 'CreateZoneRecord')).toBe('name,type,rdata,ttl');
    const noted = envelopeTypedData(PRODUCTION_SIGNING_DOMAIN, TYPE_REGISTRY, 'CreateRecordsEnvelope', buildEnvelope('CreateRecordsEnvelope', { zoneName: 'a.com', records: [{ name: '@', type: 'A', rdata: '1.2.3.4', ttl: 60, comment: '', tags: ['prod'] }] }));
    expect(names(noted.types, 'CreateZoneRecord')).toBe('name,type,rdata,ttl,comment,tags');
    // A struct that does not end in the notes (the seed's) is never cut.
    expect(typesForPayload(TYPE_REGISTRY, {}).CreateDnsRecord).toEqual(TYPE_REGISTRY.CreateDnsRecord);
    expect(typesForPayload(TYPE_REGISTRY, { comment: 'x' })).toBe(TYPE_REGISTRY);
  });

  it('projects the signed fields, drops unknown ones, and fills in nothing: an absent field is an error', () => {
    expect(projectStruct(TYPE_REGISTRY, 'CreateRecords', { zoneName: 'a.com', extra: 1, records: [{ name: '@', type: 'A', rdata: '1.2.3.4', ttl: '60', comment: 'c', tags: ['t'] }] })).toEqual({
      zoneName: 'a.com',
      records: [{ name: '@', type: 'A', rdata: '1.2.3.4', ttl: 60n, comment: 'c', tags: ['t'] }],
    });
    const absent = () => projectStruct(TYPE_REGISTRY, 'CreateDnsRecord', { zoneName: 'a.com', rdata: 'x', type: 'A' });
    expect(absent).toThrow(UnsignableValuesError);
    expect(absent).toThrow(/name is missing; ttl is missing/);
  });

  it('signs no envelope whose timestamp a uint256 cannot hold', () => {
    const envelope = { ...buildEnvelope('RecordSelectEnvelope', { id: 'a', zoneName: 'a.com' }), timestamp: -1 };
    expect(() => envelopeTypedData(PRODUCTION_SIGNING_DOMAIN, TYPE_REGISTRY, 'RecordSelectEnvelope', envelope)).toThrow(/timestamp cannot be negative/);
  });

  it('publishes the reachable types of a method and lists methods for an unknown one', () => {
    const found = typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, 'batchCreateDnsRecords');
    expect(found.found).toBe(true);
    expect(Object.keys(found.types).sort()).toEqual(['CreateRecords', 'CreateRecordsEnvelope', 'CreateZoneRecord']);
    const missing = typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, 'nope');
    expect(missing.found).toBe(false);
    expect(missing.availableMethods).toContain('toggleDomainParking');
  });

  it('signs no object, number or boolean as a string, whatever its own toString holds', () => {
    const hostile = JSON.parse('{"zoneName":{"toString":null},"recordsIds":[{"toString":"x"}, 7, true]}') as Record<string, unknown>;
    expect(() => projectStruct(TYPE_REGISTRY, 'DeleteRecords', hostile)).toThrow(/recordsIds.0 must be text; recordsIds.1 must be text; recordsIds.2 must be text; zoneName must be text/);
  });
});
