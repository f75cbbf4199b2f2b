import { RECORD_TYPES, type RecordType } from '../wire/dns.ts';
import { isAtOrBelow, plainName, toAbsolute, validateRecordName } from './names.ts';
import { quoteBytes, tokenize } from './presentation.ts';
import { rdataWarnings, validateRdata } from './rdata.ts';
import { commentProblem, readNotes, tagsProblems } from './record-notes.ts';
import { parseTtl } from './ttl.ts';
import type { Result } from './types.ts';
import { parseGenericRdata, rdataFromWire, typeByNumber } from './wire-rdata.ts';
import type { Entry } from './zone-file-lex.ts';

/**
 * One entry of a zone file read as BIND 9 reads it, in named steps: a directive, else the owner, TTL and class, the
 * type, the TTL the record takes, what is not imported, the record data, the set's shared TTL and the line's notes.
 * What carries from one entry to the next ($ORIGIN, $TTL, the last owner and TTL) is the reader's state.
 */

export const DEFAULT_IMPORT_TTL = 3600;

/** Types a zone file may hold that this service does not serve: skipped, with a reason, rather than errors. */
const OTHER_TYPES = new Set([
  'AFSDB', 'APL', 'CDNSKEY', 'CDS', 'CERT', 'CSYNC', 'DHCID', 'DLV', 'DNAME', 'DNSKEY', 'EUI48', 'EUI64', 'HINFO', 'HIP',
  'IPSECKEY', 'KEY', 'KX', 'LOC', 'MB', 'MG', 'MINFO', 'MR', 'NSEC', 'NSEC3', 'NSEC3PARAM', 'NULL', 'NXT', 'OPENPGPKEY',
  'RP', 'RRSIG', 'SIG', 'SMIMEA', 'TKEY', 'TSIG', 'URI', 'WKS', 'X25', 'ZONEMD', 'ISDN', 'RT', 'NSAP', 'GPOS', 'A6',
]);
/** Provider-specific pseudo records (Route 53 aliases, ANAME flattening, redirects); ALIAS is a type of ours. */
const PSEUDO_TYPES = new Set(['AWS', 'ANAME', 'URL', 'URL301', 'FRAME', 'REDIRECT', 'FWD']);
const CLASSES = /^(IN|CH|HS|CS|NONE|ANY|CLASS[0-9]+)$/i;

/** Which rdata fields are domain names, by position: these are relative to $ORIGIN in a zone file. */
const NAME_FIELDS: Partial<Record<RecordType, number[]>> = {
  CNAME: [0],
  ALIAS: [0],
  NS: [0],
  PTR: [0],
  MX: [1],
  SRV: [3],
  SOA: [0, 1],
  HTTPS: [1],
  SVCB: [1],
  NAPTR: [5],
};

/** A record read from a file: its name relative to the origin ('@' = apex), its data in stored form, its notes. */
export type ParsedRecord = { name: string; type: RecordType; rdata: string; ttl: number; comment?: string; tags?: string[] };

/** What one entry gives: an error, a reason it is not imported, or a record and what is worth a look in it; nothing (a directive that took). */
export type EntryOutcome = { error: string } | { skip: string } | { record: ParsedRecord; warnings: string[] } | null;

/** What carries from one entry to the next. */
export interface ReaderState {
  /** The zone the file is read into. */
  zone: string;
  origin: string;
  /** $TTL, or the SOA's minimum when the SOA has no TTL of its own. */
  defaultTtl?: number;
  /** The last TTL a record gave itself. */
  lastTtl?: number;
  lastOwner?: string;
  /** The first TTL of each record set (name and type), which BIND gives the whole set (RFC 2181 §5.2). */
  setTtls: Map<string, { ttl: number; line: number }>;
  /** The caller's TTL for a record nothing else gives one. */
  fallbackTtl?: number;
}

function absolute(name: string, origin: string): string {
  if (name === '@') return origin;
  if (name.endsWith('.') && !name.endsWith('\\.')) return plainName(name);
  return origin === '' ? name.toLowerCase() : toAbsolute(name.toLowerCase(), origin);
}

function absoluteTarget(name: string, origin: string): string {
  if (name === '.') return '.';
  return `${absolute(name, origin)}.`;
}

/** $ORIGIN and $TTL change the state; $INCLUDE and $GENERATE are not read. */
function readDirective(tokens: string[], state: ReaderState): EntryOutcome {
  const directive = tokens[0].toUpperCase();
  if (directive === '$ORIGIN') {
    if (!tokens[1]) return { error: '$ORIGIN needs a name, e.g. $ORIGIN example.com.' };
    state.origin = absolute(tokens[1], state.origin);
    return null;
  }
  if (directive === '$TTL') {
    const ttl = parseTtl(tokens[1] ?? '');
    if (!ttl.ok) return { error: `$TTL needs a time such as 3600 or 1h: ${ttl.message}` };
    state.defaultTtl = ttl.value;
    return null;
  }
  if (directive === '$INCLUDE') return { skip: 'Included files ($INCLUDE) are not read: import that file on its own' };
  if (directive === '$GENERATE') return { skip: '$GENERATE ranges are not supported: write the records out one by one' };
  return { error: `Unknown directive ${tokens[0]}: expected $ORIGIN, $TTL or a record` };
}

/** The owner: the entry's first token, or the previous entry's owner when the line starts with a space. */
function readOwner(entry: Entry, tokens: string[], state: ReaderState): Result<string> {
  if (!entry.ownerBlank) return { ok: true, value: absolute(tokens.shift() as string, state.origin) };
  if (state.lastOwner === undefined) {
    return { ok: false, message: 'This line starts with a space, so it continues the previous name, but there is none: put the name first' };
  }
  return { ok: true, value: state.lastOwner };
}

/** An optional TTL and class, in either order, before the type. */
function readTtlAndClass(tokens: string[]): { ttl: number | undefined; recordClass: string } {
  let ttl: number | undefined;
  let recordClass = 'IN';
  while (tokens.length > 0) {
    if (/^[0-9]/.test(tokens[0]) && ttl === undefined) {
      const parsed = parseTtl(tokens[0]);
      if (!parsed.ok) break;
      ttl = parsed.value;
      tokens.shift();
    } else if (CLASSES.test(tokens[0]) && !RECORD_TYPES.includes(tokens[0].toUpperCase() as RecordType)) {
      recordClass = (tokens.shift() as string).toUpperCase();
      // RFC 3597 class numbers: CLASS1 is IN.
      recordClass = { CLASS1: 'IN', CLASS3: 'CH', CLASS4: 'HS' }[recordClass] ?? recordClass;
    } else {
      break;
    }
  }
  return { ttl, recordClass };
}

/** The type as written, a TYPEnnn of a known type as its name (RFC 3597). */
function typeOf(typeToken: string): string {
  const type = typeToken.toUpperCase();
  const typeNumber = /^TYPE([0-9]{1,5})$/.exec(type);
  return typeNumber ? (typeByNumber(Number(typeNumber[1])) ?? type) : type;
}

/**
 * The TTL as BIND reads it: the record's own, else $TTL, else the previous record's (RFC 1035), else the SOA's
 * minimum when the SOA itself has none; undefined when none of these gives one (BIND refuses the record).
 */
function recordTtlOf(ttl: number | undefined, type: string, tokens: string[], state: ReaderState): number | undefined {
  if (ttl !== undefined) {
    state.lastTtl = ttl;
    return ttl;
  }
  if (state.defaultTtl !== undefined) return state.defaultTtl;
  if (state.lastTtl !== undefined) return state.lastTtl;
  if (state.fallbackTtl !== undefined) return state.fallbackTtl;
  const minimum = type === 'SOA' && tokens[6] !== undefined ? parseTtl(tokens[6]) : null;
  if (minimum?.ok) {
    state.defaultTtl = minimum.value;
    return minimum.value;
  }
  return undefined;
}

/** Why a record of this class, type and owner is not imported (skipped) or cannot be (an error); null when it is. */
function refusal(record: { recordClass: string; type: string; typeToken: string; tokens: string[]; owner: string }, zone: string): EntryOutcome {
  const { recordClass, type, owner } = record;
  if (recordClass !== 'IN') return { skip: `Class ${recordClass} records are not DNS records of the internet (class IN): not imported` };
  if (PSEUDO_TYPES.has(type)) return { skip: `${type} is a provider's own record type, not standard DNS: add an A, AAAA or CNAME record instead` };
  if (OTHER_TYPES.has(type) || /^TYPE[0-9]+$/.test(type)) return { skip: `${type} records are not supported here` };
  if (!RECORD_TYPES.includes(type as RecordType)) return { error: `Unknown record type "${record.typeToken}": expected one of ${RECORD_TYPES.join(', ')}` };
  if (record.tokens.length === 0) return { error: `The ${type} record has no data: expected a value after the type` };
  if (!isAtOrBelow(owner, zone)) return { skip: `${owner} is outside ${zone}: not imported` };
  if (type === 'SOA' && owner !== zone) {
    return { error: `An SOA record belongs at ${zone} itself, not at ${owner}: check the owner name (a name without a final dot is relative to $ORIGIN)` };
  }
  if (type === 'SOA') return { skip: 'The SOA record belongs to the DNS provider: not imported' };
  if (type === 'NS' && owner === zone) return { skip: `The name servers of ${zone} are set by the DNS provider: not imported` };
  return null;
}

/** The record data as text: RFC 3597 generic data decoded, names in it made absolute, TXT strings as BIND reads them. */
function readRdataText(type: RecordType, tokens: string[], origin: string): Result<string> {
  let rdataText: string;
  if (tokens[0] === '\\#') {
    // RFC 3597 generic data of a known type: decoded to its usual text, then checked as any other.
    const generic = parseGenericRdata(tokens);
    const decoded = generic.ok ? rdataFromWire(type, generic.value) : generic;
    if (!decoded.ok) return decoded;
    rdataText = decoded.value;
  } else {
    for (const position of NAME_FIELDS[type] ?? []) {
      if (tokens[position] !== undefined) tokens[position] = absoluteTarget(tokens[position], origin);
    }
    rdataText = tokens.join(' ');
  }
  if ((type === 'TXT' || type === 'SPF') && tokens[0] !== '\\#') {
    // Unquoted words are separate strings in a zone file, as BIND reads them.
    const strings = tokenize(rdataText);
    if (!strings.ok) return { ok: false, message: strings.message };
    // BIND refuses a string over 255 bytes in a file (the form and the API split one for you instead).
    const long = strings.tokens.find((t) => t.bytes.length > 255);
    if (long) return { ok: false, message: `A string in a zone file is at most 255 bytes; this one has ${long.bytes.length}: split it into several quoted strings, "like" "this"` };
    rdataText = strings.tokens.map((t) => quoteBytes(t.bytes)).join(' ');
  }
  return { ok: true, value: rdataText };
}

/** One name and type share one TTL: the first record's, as BIND does; a later record's other TTL is said. */
function sharedTtl(state: ReaderState, record: { name: string; type: RecordType; ttl: number }, line: number): { ttl: number; warning?: string } {
  const setKey = `${record.name}\u0000${record.type}`;
  const first = state.setTtls.get(setKey);
  if (first === undefined) {
    state.setTtls.set(setKey, { ttl: record.ttl, line });
    return { ttl: record.ttl };
  }
  if (first.ttl === record.ttl) return { ttl: record.ttl };
  return {
    ttl: first.ttl,
    warning: `TTL ${record.ttl} differs from the first ${record.type} record of this name (line ${first.line}, TTL ${first.ttl}): one name and type share one TTL, so ${first.ttl} is used, as BIND does`,
  };
}

/** The line's `;` comment as the record's comment and tags, or why it is not kept. */
function withNotes(record: ParsedRecord, comment: string): string | undefined {
  const notes = readNotes(comment);
  const problem = commentProblem(notes.comment) ?? tagsProblems(notes.tags)[0]?.message;
  if (problem) return `The comment is not kept: ${problem}`;
  record.comment = notes.comment;
  record.tags = notes.tags;
  return undefined;
}

/** Reads one entry of the file, the state carrying what it sets for the entries after it. */
export function readEntry(entry: Entry, state: ReaderState): EntryOutcome {
  if (entry.error) return { error: entry.error };
  const tokens = [...entry.tokens];
  if (!entry.ownerBlank && tokens[0].startsWith('$')) return readDirective(tokens, state);
  const owner = readOwner(entry, tokens, state);
  if (!owner.ok) return { error: owner.message };
  state.lastOwner = owner.value;

  const { ttl, recordClass } = readTtlAndClass(tokens);
  const typeToken = tokens.shift();
  if (typeToken === undefined) return { error: 'The record type is missing: expected a line such as "www 3600 IN A 192.0.2.10"' };
  const type = typeOf(typeToken);
  const recordTtl = recordTtlOf(ttl, type, tokens, state);
  if (recordTtl === undefined) {
    return { error: `This record has no TTL, and nothing before it gives one: add a line such as $TTL ${DEFAULT_IMPORT_TTL} at the top of the file, or a TTL before the type` };
  }
  const refused = refusal({ recordClass, type, typeToken, tokens, owner: owner.value }, state.zone);
  if (refused) return refused;
  const recordType = type as RecordType;
  const name = validateRecordName(`${owner.value}.`, state.zone);
  if (!name.ok) return { error: name.message };

  const rdataText = readRdataText(recordType, tokens, state.origin);
  if (!rdataText.ok) return { error: rdataText.message };
  const rdata = validateRdata(recordType, rdataText.value);
  if (!rdata.ok) return { error: rdata.message };
  const warnings: string[] = [];
  const shared = sharedTtl(state, { name: name.value, type: recordType, ttl: recordTtl }, entry.line);
  if (shared.warning) warnings.push(shared.warning);
  warnings.push(...rdataWarnings(recordType, rdata.value));
  const record: ParsedRecord = { name: name.value, type: recordType, rdata: rdata.value, ttl: shared.ttl };
  const notesWarning = entry.comment ? withNotes(record, entry.comment) : undefined;
  if (notesWarning) warnings.push(notesWarning);
  return { record, warnings };
}
