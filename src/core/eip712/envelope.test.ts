import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { recoverTypedDataAddress } from 'viem';
import { ACCEPTED_PRIMARY_TYPES, SIGNING_DOMAIN, TYPE_REGISTRY, typesForMethod } from './registry.ts';
import { buildEnvelope, envelopeTypedData, pickPrimaryType, projectStruct, UnsignableFieldsError } from './envelope.ts';

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');

describe('envelope signing', () => {
  it('signs an envelope that recovers to the signer with the registry types', async () => {
    const payload = { zoneName: 'example.com', type: 'A', name: 'www', rdata: '192.0.2.1', ttl: 300 };
    const envelope = buildEnvelope('CreateDnsRecordEnvelope', payload);
    expect(envelope.payloadType).toBe('CreateDnsRecord');
    expect(envelope.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    const typed = envelopeTypedData(SIGNING_DOMAIN, TYPE_REGISTRY, 'CreateDnsRecordEnvelope', envelope);
    const signature = await account.signTypedData(typed as never);
    const recovered = await recoverTypedDataAddress({ ...(typed as object), signature } as never);
    expect(recovered).toBe(account.address);
  });

  it('signs a tampered payload differently', async () => {
    const envelope = buildEnvelope('RecordSelectEnvelope', { id: 'a', zoneName: 'example.com' });
    const typed = envelopeTypedData(SIGNING_DOMAIN, TYPE_REGISTRY, 'RecordSelectEnvelope', envelope);
    const signature = await account.signTypedData(typed as never);
    const tampered = envelopeTypedData(SIGNING_DOMAIN, TYPE_REGISTRY, 'RecordSelectEnvelope', {
      ...envelope,
      payload: { id: 'b', zoneName: 'example.com' },
    });
    expect(await recoverTypedDataAddress({ ...(tampered as object), signature } as never)).not.toBe(account.address);
  });

  it('projects absent fields to empty values and drops unknown ones', () => {
    expect(projectStruct(TYPE_REGISTRY, 'CreateDnsRecord', { zoneName: 'a.com', rdata: 'x', type: 'A' })).toEqual({
      name: '',
      rdata: 'x',
      ttl: 0n,
      zoneName: 'a.com',
    });
    expect(projectStruct(TYPE_REGISTRY, 'CreateRecords', { zoneName: 'a.com', records: [{ name: '@', type: 'A', rdata: '1.2.3.4', ttl: 60 }] })).toEqual({
      zoneName: 'a.com',
      records: [{ name: '@', type: 'A', rdata: '1.2.3.4', ttl: 60n }],
    });
  });

  it('picks the first accepted type whose struct signs every field sent', () => {
    const accepted = ACCEPTED_PRIMARY_TYPES.registerDomain;
    expect(pickPrimaryType(TYPE_REGISTRY, accepted, { normalizedDomainName: 'a.com', durationInYears: 1 })).toBe('InstantRegisterDomainDefaultWalletEnvelope');
    // In another order the first that covers the payload still wins: the wallet is then signed as empty.
    expect(pickPrimaryType(TYPE_REGISTRY, [...accepted].reverse(), { normalizedDomainName: 'a.com', durationInYears: 1 })).toBe('InstantRegisterDomainEnvelope');
    const record = { zoneName: 'a.com', name: 'www', type: 'TXT', rdata: '"x"', ttl: 60 };
    expect(pickPrimaryType(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES.createDnsRecord, record)).toBe('CreateTypedDnsRecordEnvelope');
    expect(pickPrimaryType(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES.updateDnsRecord, { id: 'x', ...record })).toBe('UpdateTypedDnsRecordEnvelope');
  });

  it('refuses to pick a type that would sign less than the payload sends', () => {
    const pick = () => pickPrimaryType(TYPE_REGISTRY, ['CreateDnsRecordEnvelope'], { zoneName: 'a.com', type: 'TXT', rdata: '"x"', class: 'IN' });
    expect(pick).toThrow(UnsignableFieldsError);
    expect(pick).toThrow(/cannot sign type, class/);
  });

  it('picks InstantRegisterDomainEnvelope for a registration with a receiving wallet', () => {
    const accepted = ACCEPTED_PRIMARY_TYPES.registerDomain;
    expect(
      pickPrimaryType(TYPE_REGISTRY, accepted, {
        normalizedDomainName: 'a.com',
        durationInYears: 1,
        nftReceivingWallet: { walletAddress: account.address, chainId: 1 },
      }),
    ).toBe('InstantRegisterDomainEnvelope');
  });

  it('publishes the reachable types of a method and lists methods for an unknown one', () => {
    const found = typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, 'batchCreateDnsRecords');
    expect(found.found).toBe(true);
    expect(Object.keys(found.types).sort()).toEqual(['CreateRecords', 'CreateRecordsEnvelope', 'CreateZoneRecord']);
    const missing = typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, 'nope');
    expect(missing.found).toBe(false);
    expect(missing.availableMethods).toContain('toggleDomainParking');
  });

  it('projects an object where a string is signed as "", whatever its own toString holds', () => {
    const hostile = JSON.parse('{"zoneName":{"toString":null},"recordsIds":[{"toString":"x"}, 7, true]}') as Record<string, unknown>;
    expect(projectStruct(TYPE_REGISTRY, 'DeleteRecords', hostile)).toEqual({ recordsIds: ['', '7', 'true'], zoneName: '' });
  });
});
