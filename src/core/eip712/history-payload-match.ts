import { validateRecordName } from '../dns/names.ts';
import { validateRdata } from '../dns/rdata.ts';
import type { DnsRecord, RecordType } from '../wire/dns.ts';
import type { HistoryEntry } from '../wire/history.ts';
import { payloadStructOf, projectStruct } from './envelope.ts';

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

/** What differs between a signed record and the record the entry says was written; `signsType` is false for the seed's structs. */
function recordProblems(where: string, signed: Fields, record: DnsRecord, zone: string): string[] {
  const problems: string[] = [];
  const type = 'type' in signed ? String(signed.type) : record.type;
  if ('type' in signed && type !== record.type) problems.push(`${where}: type ${record.type} was written, ${type} was signed`);
  if ('name' in signed && storedName(signed.name, zone) !== record.name) problems.push(`${where}: name ${record.name} was written, ${String(signed.name)} was signed`);
  if ('rdata' in signed && storedData(type, signed.rdata) !== record.rdata) problems.push(`${where}: data ${record.rdata} was written, ${String(signed.rdata)} was signed`);
  if ('ttl' in signed && String(signed.ttl) !== String(record.ttl)) problems.push(`${where}: TTL ${record.ttl} was written, ${String(signed.ttl)} was signed`);
  return problems;
}

const ids = (list: Array<DnsRecord | null>) => list.map((r) => r?.id ?? '?').sort().join(', ');

/**
 * Whether an entry's changes are what its signed payload asked for, compared on the payload as the signature covers
 * it (projected onto the signed struct): the records written, the ids updated or deleted, the zone and parking.
 * Answers each difference in words; empty when they agree.
 */
export function signedPayloadProblems(entry: HistoryEntry): string[] {
  const signed = entry.signed!;
  const struct = payloadStructOf(signed.types, signed.primaryType);
  if (!struct) return [`${signed.primaryType} is not an envelope type of the entry's types`];
  const envelopePayload = (signed.envelope as { payload?: unknown }).payload;
  const payload = projectStruct(signed.types, struct, envelopePayload);
  // Fields the struct signs only: what the signature says, and nothing a relay could have added.
  const signedFields = (value: unknown, name: string): Fields => {
    const source = (value && typeof value === 'object' ? value : {}) as Fields;
    const fields = signed.types[name] ?? [];
    return Object.fromEntries(fields.filter((f) => f.name in source).map((f) => [f.name, (projectStruct(signed.types, name, source) as Fields)[f.name]]));
  };
  const problems: string[] = [];
  const zone = (payload.zoneName ?? payload.normalizedDomainName) as string | undefined;
  if (zone !== undefined && zone !== entry.zoneName) problems.push(`the signature is for ${zone}, the entry is of ${entry.zoneName}`);
  const made = entry.changes.filter((c) => c.op === 'create').map((c) => c.after!);
  const updated = entry.changes.filter((c) => c.op === 'update');
  const deleted = entry.changes.filter((c) => c.op === 'delete').map((c) => c.before);
  const only = (kinds: string) => {
    const extra = entry.changes.filter((c) => !kinds.includes(c.op));
    if (extra.length > 0) problems.push(`the entry lists ${extra.length} ${extra[0].op}(s) the signature does not ask for`);
  };

  switch (struct) {
    case 'CreateDnsRecord':
    case 'CreateTypedDnsRecord': {
      only('create');
      if (made.length !== 1) problems.push(`one record was signed, the entry lists ${made.length} created`);
      else problems.push(...recordProblems('the created record', signedFields(envelopePayload, struct), made[0], entry.zoneName));
      break;
    }
    case 'CreateRecords':
    case 'RegisterDomainWithRecords': {
      only('create');
      const records = payload.records as Fields[];
      if (records.length !== made.length) problems.push(`${records.length} records were signed, the entry lists ${made.length} created`);
      else records.forEach((_, i) => problems.push(...recordProblems(`record ${i + 1}`, signedFields((envelopePayload as { records: unknown[] }).records[i], 'CreateZoneRecord'), made[i], entry.zoneName)));
      break;
    }
    case 'UpdateDnsRecord':
    case 'UpdateTypedDnsRecord': {
      only('update');
      if (updated.length !== 1 || updated[0].after?.id !== payload.id) problems.push(`record ${String(payload.id)} was signed, the entry updates ${ids(updated.map((u) => u.after))}`);
      else problems.push(...recordProblems('the updated record', signedFields(envelopePayload, struct), updated[0].after!, entry.zoneName));
      break;
    }
    case 'UpdateRecords': {
      only('update');
      const records = payload.records as Fields[];
      const byId = new Map(updated.map((u) => [u.after?.id, u.after!]));
      if (records.length !== updated.length) problems.push(`${records.length} updates were signed, the entry lists ${updated.length}`);
      records.forEach((r, i) => {
        const after = byId.get(String(r.id));
        if (!after) problems.push(`record ${String(r.id)} was signed, the entry does not update it`);
        else problems.push(...recordProblems(`record ${String(r.id)}`, signedFields((envelopePayload as { records: unknown[] }).records[i], 'UpdateZoneRecord'), after, entry.zoneName));
      });
      break;
    }
    case 'RecordSelect':
    case 'DeleteRecords': {
      only('delete');
      const signedIds = struct === 'RecordSelect' ? [String(payload.id)] : (payload.recordsIds as string[]);
      if ([...signedIds].sort().join(', ') !== ids(deleted)) problems.push(`the signature deletes ${signedIds.join(', ')}, the entry deletes ${ids(deleted)}`);
      break;
    }
    case 'ParkDomain':
    case 'ToggleDomainParking': {
      only('delete');
      const parked = struct === 'ParkDomain' ? true : payload.enableParking === true;
      if (entry.parking?.after !== parked) problems.push(`the signature ${parked ? 'parks' : 'unparks'} the domain, the entry ${entry.parking?.after ? 'parks' : 'unparks'} it`);
      if (deleted.length > 0 && !(parked && payload.overrideExistingRecords === true)) problems.push('the entry deletes records the signature did not ask to replace');
      break;
    }
    case 'SetForwarding': {
      only('');
      const after = (entry.forwarding?.after ?? {}) as Fields;
      for (const field of ['enabled', 'targetUrl', 'statusCode', 'keepPath']) {
        const signedValue = field === 'statusCode' ? Number(payload[field]) : payload[field];
        if (after[field] !== signedValue) problems.push(`the signature sets forwarding ${field} to ${JSON.stringify(signedValue)}, the entry to ${JSON.stringify(after[field])}`);
      }
      break;
    }
    case 'ToggleDnssec': {
      only('');
      const enabled = payload.enabled === true;
      if (entry.dnssec?.after !== enabled) problems.push(`the signature turns DNSSEC ${enabled ? 'on' : 'off'}, the entry turns it ${entry.dnssec?.after ? 'on' : 'off'}`);
      break;
    }
    default:
      problems.push(`the entry's changes cannot be compared with a ${struct} signature`);
  }
  return problems;
}
