import type { Answer, Packet } from 'dns-packet';
import { parkingRecords } from '../../src/core/dns/parking.ts';
import type { RecordType } from '../../src/core/wire/dns.ts';
import type { RecordChange } from '../../src/core/wire/history.ts';
import type { Queryable } from '../db/database.ts';
import { rr } from './resolve.ts';
import type { RecordSet, ZoneSnapshot } from './zone-snapshot.ts';

/**
 * IXFR (RFC 1995) read from the zone's history: every accepted change already writes one entry in its own
 * transaction with the records before and after and the serial it produced, so the journal of differences is a
 * reader of that record, not a second writer. A client holding serial S gets the entries S+1 … current as
 * difference sequences; when they are not all there (a serial the history does not cover, or a gap), or more than
 * the journal keeps (1,000 serials, or DNS_JOURNAL_DAYS of them if that is more), it gets the whole zone.
 */
export const JOURNAL_MIN_SERIALS = 1000;
const PER_MESSAGE = 500;

interface EntryRow {
  serial: string | number;
  at: Date | string;
  entry: string;
}
interface Difference {
  serial: number;
  deleted: Answer[];
  added: Answer[];
}

type RecordLike = { name: string; type: RecordType; ttl: number; rdata: string };
const provider = (r: RecordLike) => r.name === '@' && (r.type === 'SOA' || r.type === 'NS');
const owner = (name: string, zone: string) => (name === '@' ? zone : `${name}.${zone}`);
const answerOf = (zone: string) => (r: RecordLike) => rr(owner(r.name, zone), r.type, r.ttl, r.rdata);

/** The client's serial: the SOA in the IXFR query's authority section (RFC 1995 §3). */
export function heldSerial(query: Packet): number | null {
  const soa = (query.authorities ?? []).find((a) => a.type === 'SOA') as { data?: { serial?: number } } | undefined;
  return typeof soa?.data?.serial === 'number' ? soa.data.serial : null;
}

/** The differences from `from` to the snapshot's serial, or null when the history cannot give all of them. */
export async function differencesSince(db: Queryable, snapshot: ZoneSnapshot, from: number, journalDays: number, now = new Date()): Promise<Difference[] | null> {
  if (from >= snapshot.serial) return [];
  const rows = await db.query<EntryRow>(
    'SELECT serial, at, entry FROM zone_history WHERE zone_name = $1 AND serial > $2 AND serial <= $3 ORDER BY serial, id',
    [snapshot.zone, from, snapshot.serial],
  );
  if (rows.length !== snapshot.serial - from || rows.some((row, i) => Number(row.serial) !== from + 1 + i)) return null;
  const oldest = new Date(rows[0].at).getTime();
  if (rows.length > JOURNAL_MIN_SERIALS && oldest < now.getTime() - journalDays * 86_400_000) return null;
  const toAnswer = answerOf(snapshot.zone);
  const parked = parkingRecords(snapshot.zone);
  return rows.map((row) => {
    const entry = JSON.parse(row.entry) as { changes: RecordChange[]; parking?: { before: boolean; after: boolean } };
    const deleted: RecordLike[] = entry.changes.flatMap((c) => (c.before ? [c.before as RecordLike] : []));
    const added: RecordLike[] = entry.changes.flatMap((c) => (c.after ? [c.after as RecordLike] : []));
    if (entry.parking?.before && !entry.parking.after) deleted.push(...parked);
    if (!entry.parking?.before && entry.parking?.after) added.push(...parked);
    return { serial: Number(row.serial), deleted: deleted.filter((r) => !provider(r)).map(toAnswer), added: added.filter((r) => !provider(r)).map(toAnswer) };
  });
}

/**
 * The IXFR answer: the current SOA alone when the client is up to date; else the current SOA, then per change the
 * SOA before it, the records it removed, the SOA after it and the records it added, then the current SOA again.
 * Null: answer with the whole zone instead.
 */
export async function ixfrAnswer(db: Queryable, query: Packet, snapshot: ZoneSnapshot, journalDays: number, reply: (answers: Answer[]) => Packet): Promise<Packet[] | null> {
  const from = heldSerial(query);
  if (from === null) return null;
  const soaSet = snapshot.nodes.get('@')?.get('SOA') as RecordSet;
  const soaAt = (serial: number) => {
    const fields = soaSet.rdatas[0].split(' ');
    fields[2] = String(serial);
    return rr(snapshot.zone, 'SOA', soaSet.ttl, fields.join(' '));
  };
  const current = soaAt(snapshot.serial);
  if (from >= snapshot.serial) return [reply([current])];
  const differences = await differencesSince(db, snapshot, from, journalDays);
  if (!differences) return null;
  const records: Answer[] = [current];
  for (const d of differences) records.push(soaAt(d.serial - 1), ...d.deleted, soaAt(d.serial), ...d.added);
  records.push(current);
  const messages: Packet[] = [];
  for (let i = 0; i < records.length; i += PER_MESSAGE) messages.push(reply(records.slice(i, i + PER_MESSAGE)));
  return messages;
}
