import { describe, expect, it } from 'vitest';
import { ACCEPTED_PRIMARY_TYPES, TYPE_REGISTRY, typesForMethod } from './registry.ts';
import type { TypesForMethod } from '../wire/eip712.ts';
import { chooseSigning } from './signing-choice.ts';
import { productionTypesForMethod, seedTypesForMethod } from '../../test/fixtures/eip712-production-types.ts';

const local = (method: string) => typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, method) as TypesForMethod;
const production = productionTypesForMethod;
const seed = seedTypesForMethod;
const record = { zoneName: 'example.com', name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 };
const wallet = { walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chainId: 8453 };

describe('chooseSigning', () => {
  it('signs a record with its type where the service offers a typed struct (local)', () => {
    expect(chooseSigning(local('createDnsRecord'), record)).toEqual({ how: 'signature', primaryType: 'CreateTypedDnsRecordEnvelope', unsignedAccepted: [] });
    expect(chooseSigning(local('updateDnsRecord'), { id: 'r1', ...record })).toEqual({ how: 'signature', primaryType: 'UpdateTypedDnsRecordEnvelope', unsignedAccepted: [] });
  });

  it("takes the seed's untyped record struct where the service publishes the record type as taken unsigned, naming it", () => {
    expect(chooseSigning(seed('createDnsRecord'), record)).toEqual({ how: 'signature', primaryType: 'CreateDnsRecordEnvelope', unsignedAccepted: ['type'] });
    expect(chooseSigning(seed('updateDnsRecord'), { id: 'r1', ...record })).toEqual({ how: 'signature', primaryType: 'UpdateDnsRecordEnvelope', unsignedAccepted: ['type'] });
    // Without a type nothing goes unsigned.
    const { type: _type, ...untyped } = record;
    expect(chooseSigning(production('updateDnsRecord'), { id: 'r1', ...untyped })).toMatchObject({ unsignedAccepted: [] });
  });

  it('lets nothing go unsigned where the service publishes no exception (production), rather than copying the rule', () => {
    expect(production('createDnsRecord').unsignedAccepted).toBeUndefined();
    expect(chooseSigning(production('createDnsRecord'), record)).toEqual({ how: 'cannot', unsigned: ['type'] });
    expect(chooseSigning(local('createDnsRecord'), record)).toMatchObject({ how: 'signature', unsignedAccepted: [] });
    // The local service publishes its exception: under the seed's struct alone, the type goes unsigned, as it says.
    const seedOnly = { ...local('createDnsRecord'), acceptedPrimaryTypes: ['CreateDnsRecordEnvelope'] };
    expect(local('createDnsRecord').unsignedAccepted).toEqual({ CreateDnsRecordEnvelope: ['type'] });
    expect(chooseSigning(seedOnly, record)).toEqual({ how: 'signature', primaryType: 'CreateDnsRecordEnvelope', unsignedAccepted: ['type'] });
  });

  it('passes over a type that would sign a field the payload lacks', () => {
    const payload = { normalizedDomainName: 'example.com', durationInYears: 1 };
    // Production lists the wallet type first; without a wallet, the default-wallet type is the one that fits.
    expect(production('registerDomain').acceptedPrimaryTypes[0]).toBe('InstantRegisterDomainEnvelope');
    expect(chooseSigning(production('registerDomain'), payload)).toMatchObject({ how: 'signature', primaryType: 'InstantRegisterDomainDefaultWalletEnvelope' });
  });

  it("refuses production's batch create, which signs zoneName alone", () => {
    const batch = { zoneName: 'example.com', records: [{ name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 }] };
    expect(chooseSigning(production('batchCreateDnsRecords'), batch)).toEqual({ how: 'cannot', unsigned: ['records'] });
    expect(chooseSigning(local('batchCreateDnsRecords'), batch)).toMatchObject({ how: 'signature', primaryType: 'CreateRecordsEnvelope' });
  });

  it('checks nested structs too: production signs the receiving wallet’s chainId alone', () => {
    const payload = { normalizedDomainName: 'example.com', durationInYears: 1, nftReceivingWallet: wallet };
    expect(chooseSigning(production('registerDomain'), payload)).toEqual({ how: 'cannot', unsigned: ['nftReceivingWallet.walletAddress'] });
    expect(chooseSigning(local('registerDomain'), payload)).toMatchObject({ how: 'signature', primaryType: 'InstantRegisterDomainEnvelope' });
    expect(chooseSigning(production('registerDomain'), { normalizedDomainName: 'example.com', durationInYears: 1 })).toMatchObject({ how: 'signature', unsignedAccepted: [] });
  });

  it('never lets a record type go unsigned inside a batch', () => {
    const payload = { zoneName: 'example.com', records: [{ id: 'r1', name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 }] };
    expect(chooseSigning(local('batchUpdateDnsRecords'), payload)).toEqual({ how: 'cannot', unsigned: ['records.0.type'] });
  });

  it('sends the write with the session where the service publishes no type (production registerWithRecords)', () => {
    expect(chooseSigning(production('registerWithRecords'), { normalizedDomainName: 'example.com', durationInYears: 1, records: [] })).toEqual({ how: 'session' });
  });

  it('ignores fields that are not sent (undefined)', () => {
    expect(chooseSigning(local('deleteDnsRecord'), { id: 'r1', zoneName: 'example.com', note: undefined })).toMatchObject({ how: 'signature' });
  });

});
