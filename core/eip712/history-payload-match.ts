import { validateRecordName } from '../dns/names.ts';
import { validateRdata } from '../dns/rdata.ts';
import { notesOf } from '../dns/record-notes.ts';
import type { DnsRecord, RecordType } from '../wire/dns.ts';
import type { HistoryEntry } from '../wire/history.ts';
import { signedOperations, type Operation, type PayloadCheck, type Signed } from '../operations/index.ts';
import { payloadStructOf, projectStruct, typesForPayload } from './envelope.ts';

type Fields = Record<string, unknown>;

/** A signed name or data in the form the service stores it, so that "www" and "www.example.com." compare alike. */
const storedName = (name: unknown, zone: string) => {
  const checked = validateRecordName(String(name ?? ''), zone);
  return checked.ok ? checked.value : String(name);
};
const storedData = (type: string, rdata: unknown) => {
  const checked = validateRdata(type as RecordType, String(rdata ?? ''));
  return checked.ok ? checked.value : String(rdata);
};

/** What differs between a signed record and the record the entry says was written; a struct without `type` (the seed's) is not checked for it. */
function recordProblems(where: string, signed: Fields, record: DnsRecord, zone: string): string[] {
  const problems: string[] = [];
  const type = 'type' in signed ? String(signed.type) : record.type;
  if ('type' in signed && type !== record.type) problems.push(`${where}: type ${record.type} was written, ${type} was signed`);
  if ('name' in signed && storedName(signed.name, zone) !== record.name) problems.push(`${where}: name ${record.name} was written, ${String(signed.name)} was signed`);
  if ('rdata' in signed && storedData(type, signed.rdata) !== record.rdata) problems.push(`${where}: data ${record.rdata} was written, ${String(signed.rdata)} was signed`);
  if ('ttl' in signed && String(signed.ttl) !== String(record.ttl)) problems.push(`${where}: TTL ${record.ttl} was written, ${String(signed.ttl)} was signed`);
  const notes = notesOf(record);
  if ('comment' in signed && signed.comment !== notes.comment) problems.push(`${where}: comment "${notes.comment}" was written, "${String(signed.comment)}" was signed`);
  if ('tags' in signed && JSON.stringify(signed.tags) !== JSON.stringify(notes.tags)) problems.push(`${where}: tags [${notes.tags.join(', ')}] were written, [${String(signed.tags)}] were signed`);
  return problems;
}

const ids = (list: Array<DnsRecord | null>) => list.map((r) => r?.id ?? '?').sort().join(', ');

/** The declaration whose structs a payload struct is, by name: the one whose `matches` compares its entries. */
const OWNER_OF_STRUCT = new Map<string, Operation & { signed: Signed }>(signedOperations().flatMap((o) => Object.keys(o.signed.structs).map((name) => [name, o] as const)));

/**
 * Whether an entry's changes are what its signed payload asked for, compared on the payload as the signature covers
 * it (projected onto the signed struct): the zone, the kinds of change the operation's entry holds (its declaration's
 * `history.changes`), then what its declaration's `signed.matches` compares. Answers each difference in words; empty
 * when they agree.
 */
export function signedPayloadProblems(entry: HistoryEntry): string[] {
  const signed = entry.signed!;
  const envelopePayload = (signed.envelope as { payload?: unknown }).payload;
  // As the hash was computed (envelopeTypedData): a payload without notes is signed under the structs without them.
  const types = typesForPayload(signed.types, envelopePayload);
  const struct = payloadStructOf(types, signed.primaryType);
  if (!struct) return [`${signed.primaryType} is not an envelope type of the entry's types`];
  const payload = projectStruct(types, struct, envelopePayload);
  // Fields the struct signs only: what the signature says, and nothing a relay could have added.
  const signedFields = (value: unknown, name: string): Fields => {
    const source = (value && typeof value === 'object' ? value : {}) as Fields;
    const fields = types[name] ?? [];
    return Object.fromEntries(fields.filter((f) => f.name in source).map((f) => [f.name, (projectStruct(types, name, source) as Fields)[f.name]]));
  };
  const problems: string[] = [];
  const zone = (payload.zoneName ?? payload.normalizedDomainName) as string | undefined;
  if (zone !== undefined && zone !== entry.zoneName) problems.push(`the signature is for ${zone}, the entry is of ${entry.zoneName}`);

  const operation = OWNER_OF_STRUCT.get(struct);
  if (!operation?.signed.matches) return [...problems, `the entry's changes cannot be compared with a ${struct} signature`];
  const kinds: readonly string[] = operation.history?.changes ?? [];
  const extra = entry.changes.filter((c) => !kinds.includes(c.op));
  if (extra.length > 0) problems.push(`the entry lists ${extra.length} ${extra[0].op}(s) the signature does not ask for`);
  const check: PayloadCheck = {
    entry,
    struct,
    payload,
    signedFields,
    received: envelopePayload,
    made: entry.changes.filter((c) => c.op === 'create').map((c) => c.after!),
    updated: entry.changes.filter((c) => c.op === 'update'),
    deleted: entry.changes.filter((c) => c.op === 'delete').map((c) => c.before),
    recordProblems: (where, fields, record) => recordProblems(where, fields, record, entry.zoneName),
    ids,
  };
  return [...problems, ...operation.signed.matches(check)];
}
