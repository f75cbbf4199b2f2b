import { describe, expect, it } from 'vitest';
import { chooseSigning } from '#core/eip712/signing-choice.ts';
import { ACCEPTED_PRIMARY_TYPES, TYPE_REGISTRY, typesForMethod } from '#core/eip712/registry.ts';
import { typesForMethod as typesForMethodSchema } from '#core/wire/eip712.ts';
import { productionTypesForMethod } from '../../../test/fixtures/eip712-production-types.ts';
import { normaliseResponse } from './normalise.ts';

const record = { zoneName: 'example.com', name: 'www', type: 'TXT', rdata: '"hi"', ttl: 300 };
const asClient = (answer: unknown) => typesForMethodSchema.parse(normaliseResponse('getEip712TypesForMethod', JSON.parse(JSON.stringify(answer))));

describe("production's types-for-method, in the contract's shape", () => {
  it("lets a record's type go unsigned under the seed's record structs only, with the notice, as production accepts it", () => {
    const create = asClient(productionTypesForMethod('createDnsRecord'));
    expect(create.unsignedAccepted).toEqual({ CreateDnsRecordEnvelope: ['type'] });
    expect(chooseSigning(create, record)).toEqual({ how: 'signature', primaryType: 'CreateDnsRecordEnvelope', unsignedAccepted: ['type'] });
    expect(asClient(productionTypesForMethod('updateDnsRecord')).unsignedAccepted).toEqual({ UpdateDnsRecordEnvelope: ['type'] });
    // Nothing else goes unsigned there: a batch whose struct does not sign its records is still refused.
    const batch = asClient(productionTypesForMethod('batchCreateDnsRecords'));
    expect(batch.unsignedAccepted).toEqual({});
    expect(chooseSigning(batch, { zoneName: 'example.com', records: [{ name: 'a', type: 'A', rdata: '192.0.2.1', ttl: 300 }] })).toMatchObject({ how: 'cannot' });
  });

  it("keeps what a service publishes: the local service's own answer is left as it is", () => {
    const local = typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, 'createDnsRecord');
    expect(asClient(local).unsignedAccepted).toEqual(JSON.parse(JSON.stringify(local)).unsignedAccepted);
    expect(asClient({ found: false, acceptedPrimaryTypes: [], types: {}, availableMethods: [] })).not.toHaveProperty('unsignedAccepted');
  });
});
