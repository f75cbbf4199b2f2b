import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { verifyTypedData } from 'viem';
import { ACCEPTED_PRIMARY_TYPES, PRODUCTION_SIGNING_DOMAIN, TYPE_REGISTRY, typesForMethod } from '#core/eip712/registry.ts';
import { payloadStructOf, projectStruct, typesForPayload } from '#core/eip712/envelope.ts';
import { unsignedFields } from '#core/eip712/unsigned-fields.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import type { TypeRegistry, TypesForMethod } from '#core/wire/eip712.ts';
import { PRODUCTION_REGISTRY, productionTypesForMethod, seedTypesForMethod } from '../../../../test/fixtures/eip712-production-types.ts';
import { chooseSigning } from '#core/eip712/signing-choice.ts';
import { signRequest } from '@/lib/signing/sign-request.ts';
import { addCreate, addDelete, EMPTY_DRAFT, planBatches, setUpdate, type Draft } from './change-set.ts';
import { batchInWords } from './describe.ts';
import { planSigning, RECORD_OPERATIONS, sentPayload, singleWriteNotes, type RecordTypes } from './signing-plan.ts';

const at = '2026-01-01T00:00:00.000Z';
const rec = (id: string, name: string, type: DnsRecord['type'], rdata: string): DnsRecord => ({ id, zoneName: 'example.com', name, type, class: 'IN', ttl: 3600, rdata, metadata: null, createdAt: at, updatedAt: at });
const zone = [rec('1', 'www', 'A', '192.0.2.1'), rec('2', '@', 'MX', '10 mail.example.com.'), rec('3', '@', 'TXT', '"v=spf1 -all"')];
const account = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

const typesOf = (answer: (method: string) => TypesForMethod): RecordTypes => Object.fromEntries(RECORD_OPERATIONS.map((m) => [m, answer(m)]));
const LOCAL = typesOf((m) => typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, m) as TypesForMethod);
const PRODUCTION = typesOf(productionTypesForMethod);
/** Production's structs, from a service that publishes the record type as taken unsigned under them. */
const SEED = typesOf(seedTypesForMethod);
const SERVICES: Array<[string, RecordTypes, TypeRegistry]> = [['local', LOCAL, TYPE_REGISTRY], ["production's structs", SEED, PRODUCTION_REGISTRY]];

/** A draft with every kind of change: a deletion, a same-type edit, a type change and two additions. */
function fullDraft(): Draft {
  let draft: Draft = EMPTY_DRAFT;
  draft = addDelete(draft, '3');
  draft = setUpdate(draft, zone[1], { name: '@', type: 'MX', rdata: '20 mail.example.com.', ttl: 3600 });
  draft = setUpdate(draft, zone[0], { name: 'www', type: 'CNAME', rdata: 'host.example.net.', ttl: 300 });
  draft = addCreate(draft, { name: 'api', type: 'A', rdata: '192.0.2.7', ttl: 300 });
  draft = addCreate(draft, { name: 'mail', type: 'AAAA', rdata: '2001:db8::1', ttl: 300 });
  return draft;
}

describe('planSigning', () => {
  it('keeps one signature per kind where the local types sign every batch in full', () => {
    const signing = planSigning(planBatches(fullDraft(), zone, 'example.com'), LOCAL, { apiKey: false });
    expect(signing.batches.map((b) => b.kind)).toEqual(['delete', 'update', 'retype', 'create']);
    expect(signing).toMatchObject({ notices: [], blocked: null, waiting: false });
  });

  it('signs every kind of change at once where the service applies a whole change set (ours), type changes included', () => {
    const signing = planSigning(planBatches(fullDraft(), zone, 'example.com'), LOCAL, { apiKey: false, zoneName: 'example.com' });
    expect(signing.batches.map((b) => [b.kind, b.operationId])).toEqual([['all', 'applyDnsChanges']]);
    expect(sentPayload(signing.batches[0])).toEqual({
      zoneName: 'example.com',
      deletes: ['3'],
      updates: [
        { id: '2', name: '@', type: 'MX', rdata: '20 mail.example.com.', ttl: 3600 },
        { id: '1', name: 'www', type: 'CNAME', rdata: 'host.example.net.', ttl: 300 },
      ],
      creates: [
        { name: 'api', type: 'A', rdata: '192.0.2.7', ttl: 300 },
        { name: 'mail', type: 'AAAA', rdata: '2001:db8::1', ttl: 300 },
      ],
    });
    expect(batchInWords(signing.batches[0], 'example.com', (id) => `record ${id}`)).toEqual([
      'Apply 5 changes to example.com as one, all or nothing:',
      '− record 3',
      '~ MX example.com → 20 mail.example.com.',
      '~ CNAME www.example.com → host.example.net.',
      '+ A api.example.com → 192.0.2.7',
      '+ AAAA mail.example.com → 2001:db8::1',
    ]);
    // One kind of change alone keeps its own batch (and its own words in the history).
    const additions = planSigning(planBatches(addCreate(EMPTY_DRAFT, { name: 'api', type: 'A', rdata: '192.0.2.7', ttl: 300 }), zone, 'example.com'), LOCAL, { apiKey: false, zoneName: 'example.com' });
    expect(additions.batches.map((b) => b.kind)).toEqual(['create']);
    // Production publishes no such operation: one signature per kind, as before.
    expect(planSigning(planBatches(fullDraft(), zone, 'example.com'), SEED, { apiKey: false, zoneName: 'example.com' }).batches.map((b) => b.kind)).not.toContain('all');
  });

  it("signs the additions one record at a time against production's CreateRecords (zoneName alone), and names the unsigned type", () => {
    const signing = planSigning(planBatches(fullDraft(), zone, 'example.com'), SEED, { apiKey: false });
    expect(signing.batches.map((b) => [b.kind, b.operationId])).toEqual([
      ['delete', 'batchDeleteDnsRecords'],
      ['update', 'batchUpdateDnsRecords'],
      ['retype', 'updateDnsRecord'],
      ['create-one', 'createDnsRecord'],
      ['create-one', 'createDnsRecord'],
    ]);
    expect(signing.batches.slice(3).map(sentPayload)).toEqual([
      { zoneName: 'example.com', name: 'api', type: 'A', rdata: '192.0.2.7', ttl: 300 },
      { zoneName: 'example.com', name: 'mail', type: 'AAAA', rdata: '2001:db8::1', ttl: 300 },
    ]);
    expect(signing.blocked).toBeNull();
    expect(signing.notices).toEqual([
      "This service's batch type does not sign records, so the 2 additions are signed one record at a time (2 signatures; an API key in Settings sends them without signing).",
      'This service does not sign the record type (CNAME, A, AAAA): whoever relays the request could change it. The rest is signed.',
    ]);
    expect(batchInWords(signing.batches[3], 'example.com', String)).toEqual(['Add one record to example.com: A api.example.com → 192.0.2.7']);
  });

  for (const [service, types, registry] of SERVICES) {
    it(`every planned write signs all it sends but the record type the contract allows (${service})`, async () => {
      const signing = planSigning(planBatches(fullDraft(), zone, 'example.com'), types, { apiKey: false });
      for (const batch of signing.batches) {
        const payload = sentPayload(batch);
        const signed = await signRequest({ prefix: 'namefi', signer: account.address, domain: PRODUCTION_SIGNING_DOMAIN, typesForMethod: types[batch.operationId]!, payload, sign: (t) => account.signTypedData(t as never) });
        // As the service reads it: a payload without record notes under the structs without them.
        const signedTypes = typesForPayload(registry, signed.body.payload);
        const struct = payloadStructOf(signedTypes, signed.primaryType)!;
        const allowed = signed.primaryType === 'CreateDnsRecordEnvelope' || signed.primaryType === 'UpdateDnsRecordEnvelope' ? ['type'] : [];
        expect(unsignedFields(signedTypes, struct, signed.body.payload, allowed), `${batch.kind} under ${signed.primaryType}`).toEqual([]);
        const valid = await verifyTypedData({
          address: account.address,
          domain: PRODUCTION_SIGNING_DOMAIN,
          types: signedTypes,
          primaryType: signed.primaryType,
          message: { payloadType: signed.body.payloadType, payload: projectStruct(signedTypes, struct, signed.body.payload), timestamp: BigInt(signed.body.timestamp), nonce: signed.body.nonce },
          signature: signed.headers['x-namefi-signature'] as `0x${string}`,
        });
        expect(valid).toBe(true);
      }
    });
  }

  it("blocks a record type change or addition where the service does not publish the type as taken unsigned (production's answer)", () => {
    const signing = planSigning(planBatches(fullDraft(), zone, 'example.com'), PRODUCTION, { apiKey: false });
    expect(signing.blocked).toBe(
      "This service's signing types cannot sign the type change (type) or the additions (type). Nothing is signed over less than it sends, so nothing will be sent: set an API key in Settings to apply this change set.",
    );
  });

  it('splits a batch update or delete whose type does not sign it, and blocks what no type can sign', () => {
    const noBatchTypes: RecordTypes = {
      ...SEED,
      batchUpdateDnsRecords: { ...SEED.batchUpdateDnsRecords!, types: { ...SEED.batchUpdateDnsRecords!.types, UpdateZoneRecord: [{ name: 'id', type: 'string' }] } },
      batchDeleteDnsRecords: { ...SEED.batchDeleteDnsRecords!, types: { ...SEED.batchDeleteDnsRecords!.types, DeleteRecords: [{ name: 'zoneName', type: 'string' }] } },
    };
    const plan = planBatches(fullDraft(), zone, 'example.com');
    const split = planSigning(plan, noBatchTypes, { apiKey: false });
    expect(split.batches.map((b) => b.kind)).toEqual(['delete-one', 'update-one', 'retype', 'create-one', 'create-one']);
    // A same-type change sent alone does not send its type, so nothing goes unsigned.
    expect(sentPayload(split.batches[1])).toEqual({ id: '2', zoneName: 'example.com', name: '@', rdata: '20 mail.example.com.', ttl: 3600 });

    const nothingSigns: RecordTypes = { ...SEED, createDnsRecord: { ...SEED.createDnsRecord!, types: { ...SEED.createDnsRecord!.types, CreateDnsRecord: [{ name: 'zoneName', type: 'string' }] } } };
    const blocked = planSigning(plan, nothingSigns, { apiKey: false });
    expect(blocked.blocked).toBe("This service's signing types cannot sign the additions (name, type, rdata, ttl). Nothing is signed over less than it sends, so nothing will be sent: set an API key in Settings to apply this change set.");
  });

  it('sends the batches as planned with an API key, asking no types', () => {
    const plan = planBatches(fullDraft(), zone, 'example.com');
    expect(planSigning(plan, {}, { apiKey: true })).toEqual({ batches: plan.batches, notices: [], blocked: null, waiting: false });
  });

  it('waits for the types before anything is signed', () => {
    const { batchCreateDnsRecords: _missing, ...partial } = LOCAL;
    expect(planSigning(planBatches(fullDraft(), zone, 'example.com'), partial, { apiKey: false }).waiting).toBe(true);
  });
});

describe('singleWriteNotes', () => {
  const record = { zoneName: 'example.com', name: 'www', type: 'TXT', rdata: '"hello"', ttl: 300 };
  it('says nothing where the type is signed, and names it where the service cannot sign it', () => {
    expect(singleWriteNotes(chooseSigning(LOCAL.createDnsRecord!, record), 'TXT')).toEqual([]);
    expect(singleWriteNotes(chooseSigning(SEED.createDnsRecord!, record), 'TXT')).toEqual([
      'This service does not sign the record type (TXT): whoever relays the request could change it. The rest is signed.',
    ]);
    expect(singleWriteNotes(chooseSigning(PRODUCTION.createDnsRecord!, record), 'TXT')).toEqual([
      "This service's signing types cannot sign type, so nothing will be signed or sent. Set an API key in Settings to make this change.",
    ]);
  });
});
