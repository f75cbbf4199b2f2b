import type { Answer, Packet } from 'dns-packet';
import { DAY_MS } from '#core/dates.ts';
import { managedRecordsOf, type ManagedSettings, type ManagedState } from '#core/dns/managed.ts';
import { toAbsolute } from '#core/dns/names.ts';
import type { RecordType } from '#core/wire/dns.ts';
import type { ZoneChangeFacts } from '#core/wire/history.ts';
import type { Queryable } from '../db/database.ts';
import { changesBetween } from '../history/changes-between.ts';
import { rr } from './resolve.ts';
import { answerKey, type SignedStep } from './signed-steps.ts';
import type { RecordSet, ZoneSnapshot } from './zone-snapshot.ts';

/**
 * IXFR (RFC 1995) read from the zone's history: every accepted change already writes one entry in its own
 * transaction with the records before and after and the serial it produced, so the journal of differences is a
 * reader of that record, not a second writer. A client holding serial S gets the entries S+1 … current as
 * difference sequences (entries that moved no serial, such as a transfer's, are not differences); when they are not all there (a serial the history does not cover, or a gap), or more than
 * the journal keeps (1,000 serials, or DNS_JOURNAL_DAYS of them if that is more), or when DNSSEC was turned on or
 * off since (the signatures and NSEC records to add or delete are in no entry), it gets the whole zone. A signed
 * zone's NSEC records and RRSIGs come from the steps its instance signed (signed-steps.ts); without them, whole zone.
 */
const JOURNAL_MIN_SERIALS = 1000;
/** Records per message of a transfer. */
export const PER_MESSAGE = 500;

interface Difference {
  /** The serial it starts from, when not the one before (a signed step may span changes loaded together). */
  from?: number;
  serial: number;
  deleted: Answer[];
  added: Answer[];
}

type RecordLike = { name: string; type: RecordType; ttl: number; rdata: string };
/** Not sent as records: the provider's own apex SOA and NS, and ALIAS (its flattened A/AAAA are, as changes of their own). */
const provider = (r: RecordLike) => r.type === 'ALIAS' || (r.name === '@' && (r.type === 'SOA' || r.type === 'NS'));
const answerOf = (zone: string) => (r: RecordLike) => rr(toAbsolute(r.name, zone), r.type, r.ttl, r.rdata);

/** The client's serial: the SOA in the IXFR query's authority section (RFC 1995 §3). */
export function heldSerial(query: Packet): number | null {
  const soa = (query.authorities ?? []).find((a) => a.type === 'SOA') as { data?: { serial?: number } } | undefined;
  return typeof soa?.data?.serial === 'number' ? soa.data.serial : null;
}

/** An entry as the journal reads it: what the change did (the history's one shape of it). */
type Entry = ZoneChangeFacts;

/**
 * The managed records an entry removed and added, from the one source of managed records. A setting the entry does
 * not name did not change, and then only one that did can make the two sides differ: a side with forwarding on is
 * unparked, so "not parked, not forwarded" stands in for what the entry leaves out. DNSSEC's records are not here:
 * a signed zone's come from its signed steps, and a zone whose signing changed is sent whole.
 */
function managedDifference(zone: string, entry: Entry, settings: ManagedSettings): { deleted: RecordLike[]; added: RecordLike[] } {
  if (!entry.parking && !entry.forwarding) return { deleted: [], added: [] };
  const side = (when: 'before' | 'after'): ManagedState => ({ parked: entry.parking?.[when] ?? false, forwarding: entry.forwarding?.[when].enabled ?? false });
  const key = (r: RecordLike) => `${r.name} ${r.type} ${r.rdata}`;
  // No key in the state: parking's and the forwarder's records only, all of types a stored record has.
  const [before, after] = (['before', 'after'] as const).map((when) => managedRecordsOf(zone, side(when), settings) as RecordLike[]);
  const [beforeKeys, afterKeys] = [new Set(before.map(key)), new Set(after.map(key))];
  return { deleted: before.filter((r) => !afterKeys.has(key(r))), added: after.filter((r) => !beforeKeys.has(key(r))) };
}

/** The differences from `from` to the snapshot's serial, or null when the history cannot give all of them. */
async function differencesSince(db: Queryable, snapshot: ZoneSnapshot, from: number, journalDays: number, settings: ManagedSettings, now = new Date()): Promise<Difference[] | null> {
  const changes = await changesBetween(db, snapshot.zone, from, snapshot.serial);
  if (!changes) return null;
  if (changes.length === 0) return [];
  const oldest = new Date(changes[0].at).getTime();
  if (changes.length > JOURNAL_MIN_SERIALS && oldest < now.getTime() - journalDays * DAY_MS) return null;
  const entries = changes.map((change) => change.facts);
  // Signing turned on or off changes every RRset's signatures and the NSEC chain, which no entry holds: whole zone.
  if (entries.some((entry) => entry.dnssec && entry.dnssec.before !== entry.dnssec.after)) return null;
  // Entering or leaving redemption takes every stored record out of the answers or puts it back: whole zone.
  if (entries.some((entry) => entry.expired && entry.expired.before !== entry.expired.after)) return null;
  const toAnswer = answerOf(snapshot.zone);
  return changes.map(({ serial }, i) => {
    const entry = entries[i];
    const managed = managedDifference(snapshot.zone, entry, settings);
    const deleted: RecordLike[] = [...entry.changes.flatMap((c) => (c.before ? [c.before as RecordLike] : [])), ...managed.deleted];
    const added: RecordLike[] = [...entry.changes.flatMap((c) => (c.after ? [c.after as RecordLike] : [])), ...managed.added];
    return { serial, deleted: deleted.filter((r) => !provider(r)).map(toAnswer), added: added.filter((r) => !provider(r)).map(toAnswer) };
  });
}

/**
 * A signed zone's differences: one per signing step (a load may take several changes at once), the records of its
 * changes netted (a record added then removed within the step is in neither list), then its NSEC records and RRSIGs.
 */
function withSignatures(differences: Difference[], steps: SignedStep[]): Difference[] {
  return steps.map((step) => {
    const deleted = new Map<string, Answer>();
    const added = new Map<string, Answer>();
    for (const d of differences.filter((x) => x.serial > step.from && x.serial <= step.to)) {
      for (const a of d.deleted) if (!added.delete(answerKey(a))) deleted.set(answerKey(a), a);
      for (const a of d.added) if (!deleted.delete(answerKey(a))) added.set(answerKey(a), a);
    }
    return { from: step.from, serial: step.to, deleted: [...deleted.values(), ...step.deleted], added: [...added.values(), ...step.added] };
  });
}

/** The zone's SOA record with another serial (the SOAs around each difference of an IXFR). */
export function soaAtSerial(snapshot: ZoneSnapshot): (serial: number) => Answer {
  const soaSet = snapshot.nodes.get('@')?.get('SOA') as RecordSet;
  return (serial: number) => {
    const fields = soaSet.rdatas[0].split(' ');
    fields[2] = String(serial);
    return rr(snapshot.zone, 'SOA', soaSet.ttl, fields.join(' '));
  };
}

/**
 * The IXFR answer: the current SOA alone when the client is up to date; else the current SOA, then per change the
 * SOA before it, the records it removed, the SOA after it and the records it added, then the current SOA again.
 * Null: answer with the whole zone instead.
 */
export async function ixfrAnswer(
  db: Queryable,
  query: Packet,
  snapshot: ZoneSnapshot,
  journal: { days: number; managed: ManagedSettings; signed?: (from: number) => SignedStep[] | null },
  reply: (answers: Answer[]) => Packet,
): Promise<Packet[] | null> {
  const from = heldSerial(query);
  if (from === null) return null;
  const soaAt = soaAtSerial(snapshot);
  const current = soaAt(snapshot.serial);
  if (from >= snapshot.serial) return [reply([current])];
  const steps = journal.signed?.(from);
  if (steps === null) return null;
  const found = await differencesSince(db, snapshot, from, journal.days, journal.managed);
  if (!found) return null;
  const differences = steps ? withSignatures(found, steps) : found;
  const records: Answer[] = [current];
  for (const d of differences) records.push(soaAt(d.from ?? d.serial - 1), ...d.deleted, soaAt(d.serial), ...d.added);
  records.push(current);
  const messages: Packet[] = [];
  for (let i = 0; i < records.length; i += PER_MESSAGE) messages.push(reply(records.slice(i, i + PER_MESSAGE)));
  return messages;
}
