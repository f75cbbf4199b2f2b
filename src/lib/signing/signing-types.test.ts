import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { verifyTypedData } from 'viem';
import { ACCEPTED_PRIMARY_TYPES, SIGNING_DOMAIN, TYPE_REGISTRY, typesForMethod } from '@/core/eip712/registry.ts';
import { projectStruct } from '@/core/eip712/envelope.ts';
import type { TypeRegistry } from '@/core/wire/eip712.ts';
import { signRequest } from './sign-request.ts';
import { typesFromRegistry } from './signing-types.ts';

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');

describe('typesFromRegistry', () => {
  it('answers for every operation of the table exactly what /eip712/types-for-method answers', () => {
    for (const method of Object.keys(ACCEPTED_PRIMARY_TYPES)) {
      expect(typesFromRegistry(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, method), method).toEqual(
        typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, method),
      );
    }
  });

  it('has no answer for an operation outside the table, so the caller asks the service', () => {
    expect(typesFromRegistry(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, 'getUserDomains')).toBeUndefined();
    expect(typesFromRegistry(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, 'toString')).toBeUndefined();
  });

  it('has no answer when the service publishes no struct for an accepted type (production registerWithRecords)', () => {
    const { RegisterDomainWithRecordsEnvelope: _gone, ...production } = TYPE_REGISTRY;
    expect(typesFromRegistry(production, ACCEPTED_PRIMARY_TYPES, 'registerWithRecords')).toBeUndefined();
    expect(typesFromRegistry(production, ACCEPTED_PRIMARY_TYPES, 'createDnsRecord')).toBeDefined();
  });

  it('has no answer when a struct the primary type references is missing', () => {
    const { CreateZoneRecord: _gone, ...broken } = TYPE_REGISTRY;
    expect(typesFromRegistry(broken, ACCEPTED_PRIMARY_TYPES, 'batchCreateDnsRecords')).toBeUndefined();
  });

  it("signs with the service's own structs, whatever it names them", async () => {
    // Production names the nested wallet struct differently and signs its chainId alone.
    const nested = 'InstantRegisterDomainEnvelope_Payload_NftReceivingWallet';
    const { NftReceivingWallet: _ours, ...rest } = TYPE_REGISTRY;
    const production: TypeRegistry = {
      ...rest,
      [nested]: [{ name: 'chainId', type: 'uint256' }],
      InstantRegisterDomain: TYPE_REGISTRY.InstantRegisterDomain.map((f) => (f.name === 'nftReceivingWallet' ? { ...f, type: nested } : f)),
    };
    const types = typesFromRegistry(production, ACCEPTED_PRIMARY_TYPES, 'registerDomain');
    expect(types && Object.keys(types.types)).toContain(nested);
    expect(types && Object.keys(types.types)).not.toContain('NftReceivingWallet');

    const payload = { normalizedDomainName: 'example.com', durationInYears: 2, nftReceivingWallet: { walletAddress: account.address, chainId: 8453 } };
    const signed = await signRequest({
      prefix: 'namefi',
      signer: account.address,
      domain: SIGNING_DOMAIN,
      typesForMethod: types!,
      payload,
      sign: (typed) => account.signTypedData(typed as never),
    });
    expect(signed.primaryType).toBe('InstantRegisterDomainEnvelope');
    // The service verifies with its full registry.
    const valid = await verifyTypedData({
      address: account.address,
      domain: SIGNING_DOMAIN,
      types: production,
      primaryType: 'InstantRegisterDomainEnvelope',
      message: {
        payloadType: 'InstantRegisterDomain',
        payload: projectStruct(production, 'InstantRegisterDomain', payload),
        timestamp: BigInt(signed.body.timestamp),
        nonce: signed.body.nonce,
      },
      signature: signed.headers['x-namefi-signature'] as `0x${string}`,
    });
    expect(valid).toBe(true);
  });
});
