import { z } from 'zod';
import { success, zoneName } from '../wire/common.ts';
import * as dns from '../wire/dns.ts';
import * as mail from '../wire/mail.ts';
import { f, op, type PayloadCheck } from './define.ts';
import { NOTE_FIELDS } from './structs.ts';

type Fields = Record<string, unknown>;

/** The entry lists one created record, the one signed. */
function oneCreated(c: PayloadCheck): string[] {
  if (c.made.length !== 1) return [`one record was signed, the entry lists ${c.made.length} created`];
  return c.recordProblems('the created record', c.signedFields(c.received, c.struct), c.made[0]);
}

/** The entry lists the signed records (`records`, each a CreateZoneRecord) as created, in order. Registration's records too. */
export function createdRecords(c: PayloadCheck): string[] {
  const records = c.payload.records as Fields[];
  if (records.length !== c.made.length) return [`${records.length} records were signed, the entry lists ${c.made.length} created`];
  const received = (c.received as { records: unknown[] }).records;
  return records.flatMap((_, i) => c.recordProblems(`record ${i + 1}`, c.signedFields(received[i], 'CreateZoneRecord'), c.made[i]));
}

function oneUpdated(c: PayloadCheck): string[] {
  const { updated, payload } = c;
  if (updated.length !== 1 || updated[0].after?.id !== payload.id) return [`record ${String(payload.id)} was signed, the entry updates ${c.ids(updated.map((u) => u.after))}`];
  return c.recordProblems('the updated record', c.signedFields(c.received, c.struct), updated[0].after!);
}

function updatedRecords(c: PayloadCheck): string[] {
  const problems: string[] = [];
  const records = c.payload.records as Fields[];
  const byId = new Map(c.updated.map((u) => [u.after?.id, u.after!]));
  if (records.length !== c.updated.length) problems.push(`${records.length} updates were signed, the entry lists ${c.updated.length}`);
  const received = (c.received as { records: unknown[] }).records;
  records.forEach((r, i) => {
    const after = byId.get(String(r.id));
    if (!after) problems.push(`record ${String(r.id)} was signed, the entry does not update it`);
    else problems.push(...c.recordProblems(`record ${String(r.id)}`, c.signedFields(received[i], 'UpdateZoneRecord'), after));
  });
  return problems;
}

const deletedIds = (signedIds: string[]) => (c: PayloadCheck): string[] =>
  [...signedIds].sort().join(', ') !== c.ids(c.deleted) ? [`the signature deletes ${signedIds.join(', ')}, the entry deletes ${c.ids(c.deleted)}`] : [];

const zoneOfRecords = { of: (input: { zoneName: string }) => input.zoneName, change: 'content' } as const;

export const recordOperations = {
  getDnsRecords: op({ id: 'getDnsRecords', method: 'GET', path: '/dns/records', tag: 'dns', summary: 'Every record of a zone, stored and managed', auth: 'none', input: z.object({ zoneName }), output: z.array(dns.dnsRecord) }),

  checkMailAuth: op({
    id: 'checkMailAuth', method: 'GET', path: '/dns/mail-check', tag: 'dns',
    summary: 'Whether mail sent as a zone authenticates: SPF (one record, syntax, +all, the 10-lookup limit of RFC 7208 \u00a74.6.4), DMARC, DKIM at the common selectors, MX targets, MTA-STS and TLS-RPT; each finding with the record that fixes it (ours)',
    auth: 'none', input: mail.mailCheckQuery, output: mail.mailCheck, errors: [404],
  }),

  createDnsRecord: op({
    id: 'createDnsRecord', method: 'POST', path: '/dns/records', tag: 'dns', summary: 'Create one record', auth: 'write', input: dns.createDnsRecordInput, output: dns.dnsRecord,
    signed: {
      structs: {
        CreateDnsRecord: [f('name', 'string'), f('rdata', 'string'), f('ttl', 'uint256'), f('zoneName', 'string')],
        // Ours: the seed's struct above leaves the record's type unsigned, so a relay could change it.
        CreateTypedDnsRecord: [f('name', 'string'), f('type', 'string'), f('rdata', 'string'), f('ttl', 'uint256'), f('zoneName', 'string'), ...NOTE_FIELDS],
      },
      accepted: ['CreateTypedDnsRecordEnvelope', 'CreateDnsRecordEnvelope'],
      // The seed's untyped struct does not sign `type`, and its clients send it (a known weakness the typed one closes).
      unsignedAccepted: { CreateDnsRecordEnvelope: ['type'] },
      matches: oneCreated,
    },
    zone: zoneOfRecords,
    history: { changes: ['create'], words: 'Added a record' },
  }),

  updateDnsRecord: op({
    id: 'updateDnsRecord', method: 'PUT', path: '/dns/record', tag: 'dns', summary: 'Update one record by id', auth: 'write', input: dns.updateDnsRecordInput, output: dns.dnsRecord,
    signed: {
      structs: {
        UpdateDnsRecord: [f('id', 'string'), f('zoneName', 'string'), f('name', 'string'), f('rdata', 'string'), f('ttl', 'uint256')],
        UpdateTypedDnsRecord: [f('id', 'string'), f('zoneName', 'string'), f('name', 'string'), f('type', 'string'), f('rdata', 'string'), f('ttl', 'uint256'), ...NOTE_FIELDS],
      },
      accepted: ['UpdateTypedDnsRecordEnvelope', 'UpdateDnsRecordEnvelope'],
      unsignedAccepted: { UpdateDnsRecordEnvelope: ['type'] },
      matches: oneUpdated,
    },
    zone: zoneOfRecords,
    history: { changes: ['update'], words: 'Edited a record' },
  }),

  deleteDnsRecord: op({
    id: 'deleteDnsRecord', method: 'DELETE', path: '/dns/record', tag: 'dns', summary: 'Delete one record by id', auth: 'write', input: dns.deleteDnsRecordInput, output: success,
    signed: {
      structs: { RecordSelect: [f('id', 'string'), f('zoneName', 'string')] },
      accepted: ['RecordSelectEnvelope'],
      matches: (c) => deletedIds([String(c.payload.id)])(c),
    },
    zone: zoneOfRecords,
    history: { changes: ['delete'], words: 'Deleted a record' },
  }),

  batchCreateDnsRecords: op({
    id: 'batchCreateDnsRecords', method: 'POST', path: '/dns/records/batch', tag: 'dns', summary: 'Create records in one zone, all or nothing', auth: 'write', input: dns.batchCreateInput, output: z.array(dns.dnsRecord),
    signed: {
      structs: { CreateRecords: [f('zoneName', 'string'), f('records', 'CreateZoneRecord[]')] },
      accepted: ['CreateRecordsEnvelope'],
      matches: createdRecords,
      notice: (input: dns.BatchCreateInput) => `Create ${input.records.length} ${input.records.length === 1 ? 'record' : 'records'} in ${input.zoneName} (CreateRecords)`,
    },
    zone: zoneOfRecords,
    history: { changes: ['create'], words: 'Added records' },
  }),

  batchUpdateDnsRecords: op({
    id: 'batchUpdateDnsRecords', method: 'PUT', path: '/dns/records/batch', tag: 'dns', summary: 'Update records in one zone, all or nothing', auth: 'write', input: dns.batchUpdateInput, output: z.array(dns.dnsRecord),
    signed: {
      structs: {
        UpdateZoneRecord: [f('id', 'string'), f('name', 'string'), f('rdata', 'string'), f('ttl', 'uint256'), ...NOTE_FIELDS],
        UpdateRecords: [f('records', 'UpdateZoneRecord[]'), f('zoneName', 'string')],
      },
      accepted: ['UpdateRecordsEnvelope'],
      matches: updatedRecords,
    },
    zone: zoneOfRecords,
    history: { changes: ['update'], words: 'Edited records' },
  }),

  batchDeleteDnsRecords: op({
    id: 'batchDeleteDnsRecords', method: 'DELETE', path: '/dns/records/batch', tag: 'dns', summary: 'Delete records in one zone, all or nothing', auth: 'write', input: dns.batchDeleteInput, output: success,
    signed: {
      structs: { DeleteRecords: [f('recordsIds', 'string[]'), f('zoneName', 'string')] },
      accepted: ['DeleteRecordsEnvelope'],
      matches: (c) => deletedIds(c.payload.recordsIds as string[])(c),
    },
    zone: zoneOfRecords,
    history: { changes: ['delete'], words: 'Deleted records' },
  }),
};
