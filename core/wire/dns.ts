import { z } from 'zod';
import { isoDate, ttl, zoneName } from './common.ts';
import { asciiName, safeText } from './text.ts';
import { recordComment, recordTags } from '../dns/record-notes.ts';

export const RECORD_TYPES = [
  'A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'PTR', 'SRV', 'CAA', 'DS', 'TLSA', 'SSHFP', 'HTTPS', 'SVCB', 'NAPTR', 'SPF', 'ALIAS',
] as const;
export const recordType = z.enum(RECORD_TYPES, { error: `Type must be one of ${RECORD_TYPES.join(', ')}` });
export type RecordType = z.infer<typeof recordType>;
/**
 * Types only the service writes: DNSSEC's apex records (DNSKEY, CDS, CDNSKEY), listed as managed records of a signed
 * zone. A write never accepts them (the write schemas take RECORD_TYPES only).
 */
const MANAGED_ONLY_TYPES = ['DNSKEY', 'CDS', 'CDNSKEY'] as const;
export const LISTED_TYPES = [...RECORD_TYPES, ...MANAGED_ONLY_TYPES] as const;
/** Any type a zone lists: the writable ones and the managed-only ones. */
export type ListedType = (typeof LISTED_TYPES)[number];
export const isWritableType = (type: string): type is RecordType => (RECORD_TYPES as readonly string[]).includes(type);

/** Shape only; the per-type rdata rules and the zone rules live in core/dns. */
const recordName = asciiName().max(255, 'A name is at most 255 characters');
const rdata = safeText().min(1, 'Record data is required');
/**
 * A write's comment and tags: absent on a create means none, on an update the stored ones. Signed by the local
 * structs (CreateTypedDnsRecord, UpdateTypedDnsRecord, CreateZoneRecord, UpdateZoneRecord), which end in them.
 */
const notes = { comment: recordComment.optional(), tags: recordTags.optional() };

export const dnsRecord = z.object({
  id: z.string(),
  zoneName: z.string(),
  name: z.string(),
  type: z.enum(LISTED_TYPES),
  class: z.string(),
  ttl: z.number(),
  rdata: z.string(),
  metadata: z.unknown(),
  /** Ours (issue 36): the record's comment and tags; production's records have neither, managed ones none. */
  comment: z.string().optional(),
  tags: z.array(z.string()).optional(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type DnsRecord = z.infer<typeof dnsRecord>;
/** A record someone wrote (what the history holds): never of a managed-only type. */
const storedDnsRecord = dnsRecord.extend({ type: recordType });
export type StoredDnsRecord = z.infer<typeof storedDnsRecord>;
export const isStoredRecord = (record: DnsRecord): record is StoredDnsRecord => isWritableType(record.type) && !isManaged(record);

/**
 * Who serves a record the provider manages (the contract's marker, `metadata: {managed: true, managedBy}`), or null for
 * a record someone wrote: the one reader of the marker. Read without a schema parse: a failed zod parse builds an
 * error object, and a 10,000-record zone would build 10,000 of them on every load.
 */
export function managedByOf(record: { metadata?: unknown }): string | null {
  const metadata = record.metadata as { managed?: unknown; managedBy?: unknown } | null | undefined;
  if (typeof metadata !== 'object' || metadata === null || metadata.managed !== true) return null;
  return typeof metadata.managedBy === 'string' ? metadata.managedBy : 'provider';
}
export const isManaged = (record: { metadata?: unknown }): boolean => managedByOf(record) !== null;


export const createDnsRecordInput = z.object({
  zoneName,
  type: recordType,
  name: recordName.optional(),
  rdata,
  ttl: ttl.optional(),
  ...notes,
});
export type CreateDnsRecordInput = z.infer<typeof createDnsRecordInput>;

const recordId = safeText().min(1, 'Name the record by its id');

export const updateDnsRecordInput = z.object({
  id: recordId,
  zoneName,
  type: recordType.optional(),
  name: recordName.optional(),
  rdata: rdata.optional(),
  ttl: ttl.optional(),
  ...notes,
});
export type UpdateDnsRecordInput = z.infer<typeof updateDnsRecordInput>;

export const deleteDnsRecordInput = z.object({ id: recordId, zoneName });
export type DeleteDnsRecordInput = z.infer<typeof deleteDnsRecordInput>;

export const MAX_BATCH = 1000;
export const zoneRecordInput = z.object({ name: recordName, type: recordType, rdata, ttl, ...notes });
export type ZoneRecordInput = z.infer<typeof zoneRecordInput>;

export const batchCreateInput = z.object({
  zoneName,
  records: z.array(zoneRecordInput).min(1, 'Add at least one record').max(MAX_BATCH, `At most ${MAX_BATCH} records per batch`),
});
export type BatchCreateInput = z.infer<typeof batchCreateInput>;

export const batchUpdateInput = z.object({
  zoneName,
  records: z
    .array(z.object({ id: recordId, type: recordType.optional(), name: recordName.optional(), rdata: rdata.optional(), ttl: ttl.optional(), ...notes }))
    .min(1, 'Add at least one record')
    .max(MAX_BATCH, `At most ${MAX_BATCH} records per batch`),
});
export type BatchUpdateInput = z.infer<typeof batchUpdateInput>;

export const batchDeleteInput = z.object({
  zoneName,
  recordsIds: z.array(recordId).min(1, 'Name at least one record').max(MAX_BATCH, `At most ${MAX_BATCH} records per batch`),
});
export type BatchDeleteInput = z.infer<typeof batchDeleteInput>;

/**
 * A mixed change set applied as one (ours): deletes, updates (each names every field it keeps, its type included, so a
 * record can change type) and creates, checked against the zone as it would stand and written in one transaction, one
 * serial step and one history entry. At most MAX_BATCH changes in all.
 */
const changeRecordInput = z.object({ id: recordId, name: recordName.optional(), type: recordType.optional(), rdata: rdata.optional(), ttl: ttl.optional(), ...notes });
export const applyDnsChangesInput = z
  .object({
    zoneName,
    creates: z.array(zoneRecordInput).max(MAX_BATCH, `At most ${MAX_BATCH} changes at once`),
    updates: z.array(changeRecordInput).max(MAX_BATCH, `At most ${MAX_BATCH} changes at once`),
    deletes: z.array(recordId).max(MAX_BATCH, `At most ${MAX_BATCH} changes at once`),
  })
  .superRefine((input, ctx) => {
    const count = input.creates.length + input.updates.length + input.deletes.length;
    if (count === 0) ctx.addIssue({ code: 'custom', path: ['creates'], message: 'Name at least one change: a record to create, update or delete' });
    if (count > MAX_BATCH) ctx.addIssue({ code: 'custom', path: ['creates'], message: `At most ${MAX_BATCH} changes at once (${count} named)` });
  });
export type ApplyDnsChangesInput = z.infer<typeof applyDnsChangesInput>;
export const appliedDnsChanges = z.object({ created: z.array(dnsRecord), updated: z.array(dnsRecord), deleted: z.array(z.string()) });
export type AppliedDnsChanges = z.infer<typeof appliedDnsChanges>;
