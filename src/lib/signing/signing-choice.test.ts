import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { verifyTypedData } from 'viem';
import { PRODUCTION_SIGNING_DOMAIN } from '#core/eip712/registry.ts';
import { projectStruct } from '#core/eip712/envelope.ts';
import { unsignedFields } from '#core/eip712/unsigned-fields.ts';
import { fieldNames } from './signing-choice.ts';
import { signRequest } from './sign-request.ts';
import { UnsignableRequestError } from './errors.ts';
import { PRODUCTION_REGISTRY, productionTypesForMethod, seedTypesForMethod } from '../../../test/fixtures/eip712-production-types.ts';

const production = productionTypesForMethod;
const seed = seedTypesForMethod;
const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const record = { zoneName: 'example.com', name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 };
const wallet = { walletAddress: account.address, chainId: 8453 };

describe('fieldNames', () => {
  it('names repeated fields once', () => {
    expect(fieldNames(['records.0.type', 'records.12.type', 'nftReceivingWallet.walletAddress'])).toEqual(['records[].type', 'nftReceivingWallet.walletAddress']);
  });
});

describe("signRequest with production's types", () => {
  const sign = (method: string, payload: Record<string, unknown>) =>
    signRequest({ prefix: 'namefi', signer: account.address, domain: PRODUCTION_SIGNING_DOMAIN, typesForMethod: seed(method), payload, sign: (typed) => account.signTypedData(typed as never) });

  it("signs a record under the seed's struct where the exception is published; production's structs recover the signer", async () => {
    const signed = await sign('createDnsRecord', record);
    expect(signed.headers['x-namefi-eip712-type']).toBe('CreateDnsRecordEnvelope');
    expect(signed.body.payload).toEqual(record);
    const valid = await verifyTypedData({
      address: account.address,
      domain: PRODUCTION_SIGNING_DOMAIN,
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
      prefix: 'namefi', signer: account.address, domain: PRODUCTION_SIGNING_DOMAIN, typesForMethod: production('registerDomain'),
      payload: { normalizedDomainName: 'example.com', durationInYears: 1, nftReceivingWallet: wallet },
      sign: async () => { asked += 1; return '0x'; },
    });
    await expect(refused).rejects.toBeInstanceOf(UnsignableRequestError);
    expect(asked).toBe(0);
  });
});
