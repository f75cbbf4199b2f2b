import { z } from 'zod';
import { success, zoneName } from '../wire/common.ts';
import * as dns from '../wire/dns.ts';
import * as mail from '../wire/mail.ts';
import { parseNameServer } from '../dns/name-server.ts';
import { f, op, type PayloadCheck } from './define.ts';
import { NOTE_FIELDS } from './structs.ts';

type Fields = Record<string, unknown>;

/** The entry lists one created record, the one signed. */
function oneCreated(c: PayloadCheck): string[] {
  if (c.made.length !== 1) return [`one record was signed, the entry lists ${c.made.length} created`];
  return c.recordProblems('the created record', c.signedFields(c.received, c.struct), c.made[0]);
}

/** The entry lists the signed records (`records`, each a CreateZoneRecord) as created, in order. Registration's records too. */
export function createdRecords(c: PayloadCheck, list = 'records'): string[] {
  const records = c.payload[list] as Fields[];
  if (records.length !== c.made.length) return [`${records.length} records were signed, the entry lists ${c.made.length} created`];
  const received = (c.received as Record<string, unknown[]>)[list];
  return records.flatMap((_, i) => c.recordProblems(`record ${i + 1}`, c.signedFields(received[i], 'CreateZoneRecord'), c.made[i]));
}

function oneUpdated(c: PayloadCheck): string[] {
  const { updated, payload } = c;
  if (updated.length !== 1 || updated[0].after?.id !== payload.id) return [`record ${String(payload.id)} was signed, the entry updates ${c.ids(updated.map((u) => u.after))}`];
  return c.recordProblems('the updated record', c.signedFields(c.received, c.struct), updated[0].after!);
}

function updatedRecords(c: PayloadCheck, list = 'records', struct = 'UpdateZoneRecord'): string[] {
  const problems: string[] = [];
  const records = c.payload[list] as Fields[];
  const byId = new Map(c.updated.map((u) => [u.after?.id, u.after!]));
  if (records.length !== c.updated.length) problems.push(`${records.length} updates were signed, the entry lists ${c.updated.length}`);
  const received = (c.received as Record<string, unknown[]>)[list];
  records.forEach((r, i) => {
    const after = byId.get(String(r.id));
    if (!after) problems.push(`record ${String(r.id)} was signed, the entry does not update it`);
    else problems.push(...c.recordProblems(`record ${String(r.id)}`, c.signedFields(received[i], struct), after));
  });
  return problems;
}

const deletedIds = (signedIds: string[]) => (c: PayloadCheck): string[] =>
  [...signedIds].sort().join(', ') !== c.ids(c.deleted) ? [`the signature deletes ${signedIds.join(', ')}, the entry deletes ${c.ids(c.deleted)}`] : [];

/** scanZone's query (contract: "Import from the old provider"): the old name server is optional, `host[:port]`. */
const scanZoneQuery = z.object({
  zoneName,
  nameserver: z
    .string()
    .max(300, 'A name server is at most 300 characters')
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined || value.trim() === '') return;
      const parsed = parseNameServer(value);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
    }),
});
export type ScanZoneQuery = z.infer<typeof scanZoneQuery>;

/** What a scan of the old provider found, names relative to the zone ('@' the apex), without its SOA and apex NS. */
const scannedRecord = z.object({ name: z.string(), type: dns.recordType, rdata: z.string(), ttl: z.number().int() });
export type ScannedRecord = z.infer<typeof scannedRecord>;
const zoneScan = z.object({
  /** axfr: the whole zone was transferred; probe: the names people use were asked one by one. */
  method: z.enum(['axfr', 'probe']),
  records: z.array(scannedRecord),
  /** DNS queries the scan sent (the probe sends at most 300). */
  queried: z.number().int(),
  /** What could not be brought over and why, in words (a refused transfer, names a probe cannot guess, types left out). */
  notes: z.array(z.string()),
});
export type ZoneScan = z.infer<typeof zoneScan>;

const zoneOfRecords = { of: (input: { zoneName: string }) => input.zoneName, change: 'content' } as const;

export const recordOperations = {
  getDnsRecords: op({ id: 'getDnsRecords', method: 'GET', path: '/dns/records', tag: 'dns', summary: 'Every record of a zone, stored and managed', auth: 'none', input: z.object({ zoneName }), output: z.array(dns.dnsRecord) }),

  checkMailAuth: op({
    id: 'checkMailAuth', method: 'GET', path: '/dns/mail-check', tag: 'dns',
    summary: 'Whether mail sent as a zone authenticates: SPF (one record, syntax, +all, the 10-lookup limit of RFC 7208 \u00a74.6.4), DMARC, DKIM at the common selectors, MX targets, MTA-STS and TLS-RPT; each finding with the record that fixes it (ours)',
    auth: 'none', input: mail.mailCheckQuery, output: mail.mailCheck, errors: [404],
  }),

  scanZone: op({
    id: 'scanZone', method: 'GET', path: '/dns/scan', tag: 'dns',
    summary: 'Read a zone from the provider it is leaving, to import: a zone transfer (AXFR) from `nameserver` when it allows one, else a probe of the names people use (at most 300 queries); writes nothing (ours; the owner)',
    auth: 'siwe', input: scanZoneQuery, output: zoneScan, errors: [401, 403, 404],
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
      matches: (c) => createdRecords(c),
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
      matches: (c) => updatedRecords(c),
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

  applyDnsChanges: op({
    id: 'applyDnsChanges', method: 'POST', path: '/dns/records/changes', tag: 'dns',
    summary: 'Apply a change set to one zone (records to delete, update and create) as one: all or nothing, one serial step, one history entry, one signature (ours)',
    auth: 'write', input: dns.applyDnsChangesInput, output: dns.appliedDnsChanges,
    signed: {
      structs: {
        // Unlike UpdateZoneRecord, it signs the type: a record of a change set may change type.
        ChangeZoneRecord: [f('id', 'string'), f('name', 'string'), f('type', 'string'), f('rdata', 'string'), f('ttl', 'uint256'), ...NOTE_FIELDS],
        ApplyDnsChanges: [f('zoneName', 'string'), f('creates', 'CreateZoneRecord[]'), f('updates', 'ChangeZoneRecord[]'), f('deletes', 'string[]')],
      },
      accepted: ['ApplyDnsChangesEnvelope'],
      matches: (c) => [...deletedIds(c.payload.deletes as string[])(c), ...updatedRecords(c, 'updates', 'ChangeZoneRecord'), ...createdRecords(c, 'creates')],
      notice: (input: dns.ApplyDnsChangesInput) => `${changeCounts(input)} in ${input.zoneName}, all or nothing (ApplyDnsChanges)`,
    },
    zone: zoneOfRecords,
    history: { changes: ['create', 'update', 'delete'], words: 'Applied a change set' },
  }),
};

function changeCounts(input: dns.ApplyDnsChangesInput): string {
  const count = (n: number, verb: string) => (n > 0 ? `${verb} ${n} ${n === 1 ? 'record' : 'records'}` : null);
  return [count(input.deletes.length, 'Delete'), count(input.updates.length, 'change'), count(input.creates.length, 'add')].filter(Boolean).join(', ').replace(/^./, (c) => c.toUpperCase());
}
