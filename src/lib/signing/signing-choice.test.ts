import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { verifyTypedData } from 'viem';
import { ACCEPTED_PRIMARY_TYPES, SIGNING_DOMAIN, TYPE_REGISTRY, typesForMethod } from '@/core/eip712/registry.ts';
import { projectStruct } from '@/core/eip712/envelope.ts';
import { unsignedFields } from '@/core/eip712/unsigned-fields.ts';
import type { TypesForMethod } from '@/core/wire/eip712.ts';
import { chooseSigning, fieldNames } from './signing-choice.ts';
import { signRequest } from './sign-request.ts';
import { UnsignableRequestError } from './errors.ts';
import { PRODUCTION_REGISTRY, productionTypesForMethod } from './fixtures/production-types.ts';

const local = (method: string) => typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, method) as TypesForMethod;
const production = productionTypesForMethod;
const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const record = { zoneName: 'example.com', name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 };
const wallet = { walletAddress: account.address, chainId: 8453 };

describe('chooseSigning', () => {
  it('signs a record with its type where the service offers a typed struct (local)', () => {
    expect(chooseSigning('createDnsRecord', local('createDnsRecord'), record)).toEqual({ how: 'signature', primaryType: 'CreateTypedDnsRecordEnvelope', unsignedAccepted: [] });
    expect(chooseSigning('updateDnsRecord', local('updateDnsRecord'), { id: 'r1', ...record })).toEqual({ how: 'signature', primaryType: 'UpdateTypedDnsRecordEnvelope', unsignedAccepted: [] });
  });

  it("takes the seed's untyped record struct under production, naming the record type as unsigned", () => {
    expect(chooseSigning('createDnsRecord', production('createDnsRecord'), record)).toEqual({ how: 'signature', primaryType: 'CreateDnsRecordEnvelope', unsignedAccepted: ['type'] });
    expect(chooseSigning('updateDnsRecord', production('updateDnsRecord'), { id: 'r1', ...record })).toEqual({ how: 'signature', primaryType: 'UpdateDnsRecordEnvelope', unsignedAccepted: ['type'] });
    // Without a type nothing goes unsigned.
    const { type: _type, ...untyped } = record;
    expect(chooseSigning('updateDnsRecord', production('updateDnsRecord'), { id: 'r1', ...untyped })).toMatchObject({ unsignedAccepted: [] });
  });

  it("refuses production's batch create, which signs zoneName alone", () => {
    const batch = { zoneName: 'example.com', records: [{ name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 }] };
    expect(chooseSigning('batchCreateDnsRecords', production('batchCreateDnsRecords'), batch)).toEqual({ how: 'cannot', unsigned: ['records'] });
    expect(chooseSigning('batchCreateDnsRecords', local('batchCreateDnsRecords'), batch)).toMatchObject({ how: 'signature', primaryType: 'CreateRecordsEnvelope' });
  });

  it('checks nested structs too: production signs the receiving wallet’s chainId alone', () => {
    const payload = { normalizedDomainName: 'example.com', durationInYears: 1, nftReceivingWallet: wallet };
    expect(chooseSigning('registerDomain', production('registerDomain'), payload)).toEqual({ how: 'cannot', unsigned: ['nftReceivingWallet.walletAddress'] });
    expect(chooseSigning('registerDomain', local('registerDomain'), payload)).toMatchObject({ how: 'signature', primaryType: 'InstantRegisterDomainEnvelope' });
    expect(chooseSigning('registerDomain', production('registerDomain'), { normalizedDomainName: 'example.com', durationInYears: 1 })).toMatchObject({ how: 'signature', unsignedAccepted: [] });
  });

  it('never lets a record type go unsigned inside a batch', () => {
    const payload = { zoneName: 'example.com', records: [{ id: 'r1', name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 }] };
    expect(chooseSigning('batchUpdateDnsRecords', local('batchUpdateDnsRecords'), payload)).toEqual({ how: 'cannot', unsigned: ['records.0.type'] });
  });

  it('sends the write with the session where the service publishes no type (production registerWithRecords)', () => {
    expect(chooseSigning('registerWithRecords', production('registerWithRecords'), { normalizedDomainName: 'example.com', durationInYears: 1, records: [] })).toEqual({ how: 'session' });
  });

  it('ignores fields that are not sent (undefined)', () => {
    expect(chooseSigning('deleteDnsRecord', local('deleteDnsRecord'), { id: 'r1', zoneName: 'example.com', note: undefined })).toMatchObject({ how: 'signature' });
  });

  it('names repeated fields once', () => {
    expect(fieldNames(['records.0.type', 'records.12.type', 'nftReceivingWallet.walletAddress'])).toEqual(['records[].type', 'nftReceivingWallet.walletAddress']);
  });
});

describe("signRequest with production's types", () => {
  const sign = (method: string, payload: Record<string, unknown>) =>
    signRequest({ prefix: 'namefi', method, signer: account.address, domain: SIGNING_DOMAIN, typesForMethod: production(method), payload, sign: (typed) => account.signTypedData(typed as never) });

  it("signs a record under the seed's struct; production recovers the signer from the projection", async () => {
    const signed = await sign('createDnsRecord', record);
    expect(signed.headers['x-namefi-eip712-type']).toBe('CreateDnsRecordEnvelope');
    expect(signed.body.payload).toEqual(record);
    const valid = await verifyTypedData({
      address: account.address,
      domain: SIGNING_DOMAIN,
      types: PRODUCTION_REGISTRY,
      primaryType: 'CreateDnsRecordEnvelope',
      message: { payloadType: 'CreateDnsRecord', payload: projectStruct(PRODUCTION_REGISTRY, 'CreateDnsRecord', record), timestamp: BigInt(signed.body.timestamp), nonce: signed.body.nonce },
      signature: signed.headers['x-namefi-signature'] as `0x${string}`,
    });
    expect(valid).toBe(true);
    // Only the type is left unsigned, as the notice says.
    expect(unsignedFields(PRODUCTION_REGISTRY, 'CreateDnsRecord', signed.body.payload)).toEqual(['type']);
  });

  it('opens no wallet for a payload the types cannot fully sign', async () => {
    let asked = 0;
    const refused = signRequest({
      prefix: 'namefi', method: 'registerDomain', signer: account.address, domain: SIGNING_DOMAIN, typesForMethod: production('registerDomain'),
      payload: { normalizedDomainName: 'example.com', durationInYears: 1, nftReceivingWallet: wallet },
      sign: async () => { asked += 1; return '0x'; },
    });
    await expect(refused).rejects.toBeInstanceOf(UnsignableRequestError);
    expect(asked).toBe(0);
  });
});
