import { DNSSEC_TYPE_NUMBERS } from '#core/dns/dnssec.ts';
import { isAtOrBelow, toRelative } from '#core/dns/names.ts';
import { validateRdata } from '#core/dns/rdata.ts';
import { rdataFromWire, typeByNumber } from '#core/dns/wire-rdata.ts';
import { TTL_MAX } from '#core/wire/common.ts';
import { isWritableType, type RecordType } from '#core/wire/dns.ts';
import type { Prerequisite, UpdateOperation, UpdateType } from '../../zones/dns-update.ts';
import { CLASS, MalformedUpdate, TYPE, type UpdateMessage, type WireRecord } from './message.ts';

/**
 * An UPDATE message's prerequisite and update sections as the zone command takes them (RFC 2136 §3.2 and §3.4.1):
 * names relative to the zone, data in its stored form, prerequisites of one name and type gathered into one RRset.
 * A record outside the zone is NOTZONE, a form the RFC does not define FORMERR, and a record the service cannot
 * hold (a type it does not serve, data its rules refuse) a refusal naming the record.
 */

export class NotInZone extends Error {}
/** A record the service will not write, with the words of its refusal (REFUSED, Extended DNS Error 0). */
export class Unwritable extends Error {}

const META = new Set<number>([TYPE.ANY, TYPE.AXFR, TYPE.IXFR, TYPE.MAILA, TYPE.MAILB]);
const DNSSEC_BY_NUMBER = new Map<number, string>(Object.entries(DNSSEC_TYPE_NUMBERS).map(([type, n]) => [n, type]));

const malformed = (why: string): never => {
  throw new MalformedUpdate(why);
};

/** The type as the zone names it: one the service stores or DNSSEC's, else TYPEnn (RFC 3597). */
const typeName = (n: number): UpdateType => (typeByNumber(n) ?? DNSSEC_BY_NUMBER.get(n) ?? `TYPE${n}`) as UpdateType;

function relativeIn(zone: string, name: string): string {
  if (!isAtOrBelow(name, zone)) throw new NotInZone(`${name} is not in ${zone}`);
  return toRelative(name, zone);
}

/** The stored form of a record's data, or why it cannot be. */
function storedData(type: RecordType, record: WireRecord, zone: string): string {
  const text = rdataFromWire(type, record.data);
  if (!text.ok) malformed(text.message);
  const stored = text.ok ? validateRdata(type, text.value) : text;
  if (!stored.ok) throw new Unwritable(`${record.name || zone} ${type}: ${stored.message}`);
  return stored.value;
}

const hexData = (record: WireRecord) => `\\# ${record.data.length} ${record.data.toString('hex')}`;

/** A record's data for comparison: its stored form when the type is one the service stores, else RFC 3597's generic form. */
function comparable(type: UpdateType, record: WireRecord, zone: string): string {
  return isWritableType(type) ? storedData(type, record, zone) : hexData(record);
}

export function prerequisitesOf(message: UpdateMessage): Prerequisite[] {
  const zone = message.zone.name;
  const out: Prerequisite[] = [];
  const equals = new Map<string, Extract<Prerequisite, { kind: 'rrsetEquals' }>>();
  for (const record of message.prerequisites) {
    const name = relativeIn(zone, record.name);
    if (record.ttl !== 0) malformed('a prerequisite’s TTL is 0');
    const any = record.type === TYPE.ANY;
    if (record.klass === CLASS.ANY || record.klass === CLASS.NONE) {
      if (record.data.length > 0) malformed('a prerequisite of class ANY or NONE has no data');
      const exists = record.klass === CLASS.ANY;
      out.push(any ? { kind: exists ? 'nameInUse' : 'nameNotInUse', name } : { kind: exists ? 'rrsetExists' : 'rrsetNotExists', name, type: typeName(record.type) });
    } else if (record.klass === CLASS.IN && !META.has(record.type)) {
      const type = typeName(record.type);
      const key = `${name}\u0000${type}`;
      const set = equals.get(key) ?? { kind: 'rrsetEquals' as const, name, type, rdatas: [] };
      if (!equals.has(key)) {
        equals.set(key, set);
        out.push(set);
      }
      set.rdatas.push(comparable(type, record, zone));
    } else {
      malformed('a prerequisite’s class is ANY, NONE or the zone’s');
    }
  }
  return out;
}

export function operationsOf(message: UpdateMessage): UpdateOperation[] {
  const zone = message.zone.name;
  return message.updates.map((record): UpdateOperation => {
    const name = relativeIn(zone, record.name);
    const type = typeName(record.type);
    if (record.klass === CLASS.IN) {
      if (META.has(record.type)) malformed('an added record has a real type');
      if (!isWritableType(type)) throw new Unwritable(`${record.name} ${type}: the service does not write records of this type`);
      if (record.ttl > TTL_MAX) throw new Unwritable(`${record.name} ${type}: a TTL is at most ${TTL_MAX}`);
      return { kind: 'add', name, type, ttl: record.ttl, rdata: storedData(type, record, zone) };
    }
    if (record.klass === CLASS.ANY) {
      if (record.ttl !== 0 || record.data.length > 0) malformed('a deletion of class ANY has TTL 0 and no data');
      if (record.type === TYPE.ANY) return { kind: 'deleteName', name };
      if (META.has(record.type)) malformed('a deleted RRset has a real type');
      return { kind: 'deleteRrset', name, type };
    }
    if (record.klass === CLASS.NONE) {
      if (record.ttl !== 0 || META.has(record.type)) malformed('a deletion of class NONE has TTL 0 and a real type');
      return { kind: 'deleteRecord', name, type, rdata: comparable(type, record, zone) };
    }
    return malformed('an update’s class is ANY, NONE or the zone’s');
  });
}
