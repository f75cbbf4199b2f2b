import type { ZoneRule } from '../wire/errors.ts';
import type { ListedType, RecordType } from '../wire/dns.ts';

/** A record as the DNS rules see it: the wire record's essentials, names relative to the zone ('@' = apex). */
export interface RecordLike {
  id?: string;
  name: string;
  type: RecordType;
  rdata: string;
  ttl: number;
  managed?: boolean;
  /** Who serves it, when managed (parking, forwarding, dnssec): the contract's `metadata.managedBy`. */
  managedBy?: string;
  /** Its notes (record-notes.ts): carried with it, never weighed by the DNS rules. */
  comment?: string;
  tags?: string[];
}

/** A record as a zone lists it: also DNSSEC's managed-only types, which no write accepts and the zone rules never weigh. */
export type ListedRecordLike = Omit<RecordLike, 'type'> & { type: ListedType };

/** A value in its stored form, or why not; `rule` names the rule broken where it is one of the named ones. */
export type Result<T> = { ok: true; value: T } | { ok: false; message: string; rule?: ZoneRule };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(message: string, rule?: ZoneRule): Result<T> {
  return rule ? { ok: false, message, rule } : { ok: false, message };
}

/** The longest full name the contract allows, counted without the trailing dot. */
export const MAX_NAME_LENGTH = 255;
