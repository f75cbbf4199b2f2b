import { isWritableType, managedByOf, type DnsRecord } from '../wire/dns.ts';
import type { ListedRecordLike, RecordLike } from './types.ts';

/** A listed record as the zone file and the rules see it, marked managed when the service serves it. */
export function listedRecordLike(record: DnsRecord): ListedRecordLike {
  const managedBy = managedByOf(record);
  const listed: ListedRecordLike = { id: record.id, name: record.name, type: record.type, rdata: record.rdata, ttl: record.ttl, managed: managedBy !== null };
  if (managedBy) listed.managedBy = managedBy;
  if (record.comment) listed.comment = record.comment;
  if (record.tags && record.tags.length > 0) listed.tags = record.tags;
  return listed;
}

/**
 * The listed records the zone rules weigh: all but DNSSEC's managed-only ones (DNSKEY, CDS, CDNSKEY at the apex),
 * which no write can name and no rule concerns (the apex already holds the provider's SOA and NS).
 */
export function weighedRecords(records: readonly DnsRecord[]): RecordLike[] {
  const weighed: RecordLike[] = [];
  for (const record of records) if (isWritableType(record.type)) weighed.push({ ...listedRecordLike(record), type: record.type });
  return weighed;
}

/** Whether the zone rules weigh a record: not one of DNSSEC's managed-only types. */
export const isWeighed = <R extends ListedRecordLike>(record: R): record is R & RecordLike => isWritableType(record.type);
