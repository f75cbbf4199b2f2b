import type { OperationId, OperationRequest } from '#core/operations/index.ts';
import type { TypesForMethod } from '#core/wire/eip712.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import { chooseSigning, type SigningChoice } from '#core/eip712/signing-choice.ts';
import { fitNotes } from '#core/eip712/envelope.ts';
import { fieldNames, unsignedTypeNotice } from '@/lib/signing/signing-choice.ts';
import { asOneWrite, type Batch, type Plan } from './change-set.ts';

/** The records page's writes of one record: their types are asked when the page opens. */
export const SINGLE_RECORD_OPERATIONS = ['createDnsRecord', 'updateDnsRecord', 'deleteDnsRecord'] as const satisfies readonly OperationId[];
/** A change set's batches: their types are asked once the change set holds something, long before its review. */
export const BATCH_RECORD_OPERATIONS = ['batchCreateDnsRecords', 'batchUpdateDnsRecords', 'batchDeleteDnsRecords', 'applyDnsChanges'] as const satisfies readonly OperationId[];
/** Every operation the records page may sign. */
export const RECORD_OPERATIONS = [...SINGLE_RECORD_OPERATIONS, ...BATCH_RECORD_OPERATIONS] as const;
type RecordOperation = (typeof RECORD_OPERATIONS)[number];
export type RecordTypes = Partial<Record<RecordOperation, TypesForMethod>>;

/** A batch update's body: its struct does not sign `type`, so it is not sent (the plan sends a type change on its own). */
export function batchUpdatePayload(payload: Extract<Batch, { kind: 'update' }>['payload']): OperationRequest<'batchUpdateDnsRecords'> {
  return { zoneName: payload.zoneName, records: payload.records.map(({ id, name, rdata, ttl, comment, tags }) => ({ id, name, rdata, ttl, ...(comment !== undefined ? { comment } : {}), ...(tags !== undefined ? { tags } : {}) })) };
}

/** Exactly the body a batch sends (before signing), so that what is planned is what is signed. */
export function sentPayload(batch: Batch): OperationRequest<Batch['operationId']> {
  switch (batch.kind) {
    case 'delete':
    case 'create':
      return batch.payload;
    case 'update':
      return batchUpdatePayload(batch.payload);
    case 'retype':
      return { id: batch.id, zoneName: batch.zoneName, ...batch.payload };
    case 'create-one':
      return { zoneName: batch.zoneName, ...batch.payload };
    case 'update-one': {
      const { type: _unchanged, ...rest } = batch.payload;
      return { id: batch.id, zoneName: batch.zoneName, ...rest };
    }
    case 'delete-one':
      return { id: batch.id, zoneName: batch.zoneName };
    case 'all':
      return batch.payload;
  }
}

/** The batch as one signed write per record, where a batch type cannot sign its records. */
function perRecord(batch: Batch): Batch[] | null {
  if (batch.kind === 'create') {
    return batch.payload.records.map((payload, i) => ({ kind: 'create-one', operationId: 'createDnsRecord', zoneName: batch.payload.zoneName, keys: [batch.keys[i]], payload }));
  }
  if (batch.kind === 'update') {
    return batch.payload.records.map(({ id, ...payload }, i) => ({ kind: 'update-one', operationId: 'updateDnsRecord', zoneName: batch.payload.zoneName, keys: [batch.keys[i]], id, payload }));
  }
  if (batch.kind === 'delete') {
    return batch.payload.recordsIds.map((id, i) => ({ kind: 'delete-one', operationId: 'deleteDnsRecord', zoneName: batch.payload.zoneName, keys: [batch.keys[i]], id }));
  }
  return null;
}

const WHAT: Record<Batch['kind'], string> = {
  delete: 'deletions', update: 'changes', create: 'additions', retype: 'type change', 'create-one': 'addition', 'update-one': 'change', 'delete-one': 'deletion', all: 'changes',
};

function recordTypeOf(batch: Batch): string | undefined {
  return batch.kind === 'retype' || batch.kind === 'create-one' || batch.kind === 'update-one' ? batch.payload.type : undefined;
}

export interface SigningPlan {
  /** The writes in order, one signature each (or one API-key request each). */
  batches: Batch[];
  /** Said before the wallet opens: where the service's types made the dashboard sign differently, and why. */
  notices: string[];
  /** Set when part of the change set cannot be signed in full: nothing is sent then. */
  blocked: string | null;
  /** The service has not yet answered which types it signs with: the wallet must not open before it has. */
  waiting: boolean;
}

/**
 * How a planned change set is signed against the service's own types (`types-for-method`), decided before the
 * wallet opens. A batch whose type does not sign everything it sends (production's CreateRecords signs zoneName
 * alone) becomes one signed write per record where the per-record type covers it; where nothing covers it the plan
 * is blocked, never signed over less. With an API key nothing is signed and the batches go as planned.
 */
export function planSigning(plan: Plan, typesOf: RecordTypes, options: { apiKey: boolean; zoneName?: string; zone?: DnsRecord[] }): SigningPlan {
  if (options.apiKey) return { batches: plan.batches, notices: [], blocked: null, waiting: false };
  // Where the service applies a whole change set as one (ours), every kind of change goes under one signature.
  const whole = options.zoneName && typesOf.applyDnsChanges ? asOneWrite(plan, options.zoneName, options.zone) : null;
  if (whole && chooseSigning(typesOf.applyDnsChanges!, sentPayload(whole)).how === 'signature') return { batches: [whole], notices: [], blocked: null, waiting: false };
  const batches: Batch[] = [];
  const notices: string[] = [];
  const unsignedTypes: string[] = [];
  const cannot: string[] = [];
  let waiting = false;
  let session = false;

  const decide = (batch: Batch): SigningChoice | null => {
    const types = typesOf[batch.operationId];
    return types ? chooseSigning(types, fitNotes(types.types, sentPayload(batch))) : null;
  };
  const keep = (batch: Batch, choice: SigningChoice) => {
    batches.push(batch);
    if (choice.how === 'session') session = true;
    if (choice.how === 'signature' && choice.unsignedAccepted.includes('type')) unsignedTypes.push(recordTypeOf(batch) ?? '');
  };

  for (const batch of plan.batches) {
    const choice = decide(batch);
    if (!choice) {
      waiting = true;
      batches.push(batch);
      continue;
    }
    if (choice.how !== 'cannot') {
      keep(batch, choice);
      continue;
    }
    const pieces = perRecord(batch);
    const choices = pieces?.map(decide) ?? [];
    if (pieces && choices.every((c) => c !== null && c.how !== 'cannot')) {
      pieces.forEach((piece, i) => keep(piece, choices[i]!));
      notices.push(
        `This service's batch type does not sign ${fieldNames(choice.unsigned).join(', ')}, so the ${pieces.length} ${WHAT[batch.kind]} are signed one record at a time (${pieces.length} ${pieces.length === 1 ? 'signature' : 'signatures'}; an API key in Settings sends them without signing).`,
      );
      continue;
    }
    if (choices.some((c) => c === null)) waiting = true;
    const missing = choices.find((c) => c?.how === 'cannot');
    const fields = missing?.how === 'cannot' ? missing.unsigned : choice.unsigned;
    cannot.push(`the ${WHAT[batch.kind]} (${fieldNames(fields).join(', ')})`);
    batches.push(batch);
  }
  if (unsignedTypes.length > 0) notices.push(unsignedTypeNotice(unsignedTypes.filter(Boolean)));
  if (session) notices.push('This service publishes no signing type for part of it: that part is sent with your sign-in instead of a signature.');
  const blocked = cannot.length > 0
    ? `This service's signing types cannot sign ${cannot.join(' or ')}. Nothing is signed over less than it sends, so nothing will be sent: set an API key in Settings to apply this change set.`
    : null;
  return { batches, notices, blocked, waiting };
}

/** The notice lines for one record written on its own (the record form's "Add and sign" / "Save and sign"). */
export function singleWriteNotes(choice: SigningChoice, recordType: string): string[] {
  if (choice.how === 'session') return ['This service publishes no signing type for this change: it is sent with your sign-in instead of a signature.'];
  if (choice.how === 'cannot') {
    return [`This service's signing types cannot sign ${fieldNames(choice.unsigned).join(', ')}, so nothing will be signed or sent. Set an API key in Settings to make this change.`];
  }
  return choice.unsignedAccepted.includes('type') ? [unsignedTypeNotice([recordType])] : [];
}
