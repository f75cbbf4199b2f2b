import { RECORD_TYPES, type RecordType } from '../wire/dns.ts';
import { managedWords } from './managed.ts';
import { fullName, isAtOrBelow, normaliseZone, plainName, toAbsolute, validateRecordName } from './names.ts';
import { quoteBytes, tokenize } from './presentation.ts';
import { rdataWarnings, validateRdata } from './rdata.ts';
import { parseTtl } from './ttl.ts';
import { commentProblem, printNotes, readNotes, tagsProblems } from './record-notes.ts';
import type { ListedRecordLike } from './types.ts';
import { parseGenericRdata, rdataFromWire, typeByNumber } from './wire-rdata.ts';

export interface ParsedZoneFile {
  /**
   * Names relative to the origin ('@' = apex), record data in its stored form; the `;` comment on a record's line as
   * its comment and tags (record-notes.ts: `; text [tags: a, b]`), present only when the line has one.
   */
  records: Array<{ name: string; type: RecordType; rdata: string; ttl: number; comment?: string; tags?: string[] }>;
  /** Lines understood but not imported: SOA, apex NS, other classes and types, names outside the zone. */
  skipped: Array<{ line: number; text: string; reason: string }>;
  /** Lines that could not be understood. */
  errors: Array<{ line: number; text: string; message: string }>;
  /** Records imported, but worth a look: a TTL unlike the rest of its set, a CAA tag outside the registry. */
  warnings: Array<{ line: number; text: string; message: string }>;
}

const DEFAULT_IMPORT_TTL = 3600;

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

interface Entry {
  line: number;
  text: string;
  ownerBlank: boolean;
  tokens: string[];
  error?: string;
  /** The text after `;` on the entry's lines, joined. */
  comment?: string;
}

/** Splits a zone file into logical entries: comments dropped, parentheses joining lines, quotes kept whole. */
function lex(text: string): Entry[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n|\r/);
  const entries: Entry[] = [];
  let entry: Entry | null = null;
  let depth = 0;
  const finish = () => {
    if (entry && (entry.tokens.length > 0 || entry.error)) entries.push(entry);
    entry = null;
    depth = 0;
  };
  lines.forEach((source, index) => {
    if (depth === 0 || !entry) {
      finish();
      entry = { line: index + 1, text: source.trim(), ownerBlank: /^[ \t]/.test(source), tokens: [] };
    } else {
      entry.text = `${entry.text} ${source.trim()}`.trim();
    }
    const current: Entry = entry;
    let token = '';
    let inToken = false;
    let inQuote = false;
    const endToken = () => {
      if (inToken) current.tokens.push(token);
      token = '';
      inToken = false;
    };
    for (let i = 0; i < source.length; i += 1) {
      const ch = source[i];
      if (inQuote) {
        token += ch;
        if (ch === '\\' && i + 1 < source.length) {
          token += source[i + 1];
          i += 1;
        } else if (ch === '"') {
          inQuote = false;
        }
        continue;
      }
      if (ch === ';') {
        const note = source.slice(i + 1).trim();
        if (note) current.comment = current.comment ? `${current.comment} ${note}` : note;
        break;
      }
      if (ch === ' ' || ch === '\t') {
        endToken();
      } else if (ch === '(' || ch === ')') {
        endToken();
        depth += ch === '(' ? 1 : -1;
        if (depth < 0) {
          current.error ??= 'A closing parenthesis ")" has no opening "(" before it';
          depth = 0;
        }
      } else if (ch === '"') {
        inToken = true;
        inQuote = true;
        token += ch;
      } else {
        inToken = true;
        token += ch;
        if (ch === '\\' && i + 1 < source.length) {
          token += source[i + 1];
          i += 1;
        }
      }
    }
    if (inQuote) current.error ??= 'A quoted string is not closed on this line: add the missing double quote (")';
    endToken();
  });
  if (depth > 0 && entry) (entry as Entry).error ??= 'A parenthesis "(" is never closed: add the missing ")"';
  finish();
  return entries;
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

/**
 * Reads a BIND zone file (as exported by Cloudflare, Route 53 tools, GoDaddy, Namecheap and name servers) into
 * records for `options.origin`. Tolerant of $ORIGIN, $TTL, '@', blank owners, TTL units, an optional class,
 * comments and parentheses; what it cannot import it lists as skipped (with a reason) or errors (with a line).
 */
export function parseZoneFile(text: string, options: { origin: string; defaultTtl?: number }): ParsedZoneFile {
  const steps = parseZoneFileInSteps(text, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Entries read between two progress reports of parseZoneFileInSteps. */
const STEP_ENTRIES = 2000;

/**
 * parseZoneFile a few thousand entries at a time: it yields how far it has read (entries of the file), so a caller can
 * show progress and let the page breathe between steps (a 100,000-record file takes seconds), and returns the result.
 */
export function* parseZoneFileInSteps(text: string, options: { origin: string; defaultTtl?: number }): Generator<{ read: number; total: number }, ParsedZoneFile> {
  const zone = normaliseZone(options.origin);
  const result: ParsedZoneFile = { records: [], skipped: [], errors: [], warnings: [] };
  // The first TTL of each record set (name and type), which BIND gives the whole set (RFC 2181 §5.2).
  const setTtls = new Map<string, { ttl: number; line: number }>();
  let origin = zone;
  let defaultTtl: number | undefined;
  let lastTtl: number | undefined;
  let lastOwner: string | undefined;

  const entries = lex(text);
  for (const [index, entry] of entries.entries()) {
    if (index > 0 && index % STEP_ENTRIES === 0) yield { read: index, total: entries.length };
    const { line } = entry;
    const shown = entry.text.length > 200 ? `${entry.text.slice(0, 199)}…` : entry.text;
    const error = (message: string) => result.errors.push({ line, text: shown, message });
    const skip = (reason: string) => result.skipped.push({ line, text: shown, reason });
    if (entry.error) {
      error(entry.error);
      continue;
    }
    const tokens = [...entry.tokens];
    if (!entry.ownerBlank && tokens[0].startsWith('$')) {
      const directive = tokens[0].toUpperCase();
      if (directive === '$ORIGIN') {
        if (!tokens[1]) error('$ORIGIN needs a name, e.g. $ORIGIN example.com.');
        else origin = absolute(tokens[1], origin);
      } else if (directive === '$TTL') {
        const ttl = parseTtl(tokens[1] ?? '');
        if (ttl.ok) defaultTtl = ttl.value;
        else error(`$TTL needs a time such as 3600 or 1h: ${ttl.message}`);
      } else if (directive === '$INCLUDE') {
        skip('Included files ($INCLUDE) are not read: import that file on its own');
      } else if (directive === '$GENERATE') {
        skip('$GENERATE ranges are not supported: write the records out one by one');
      } else {
        error(`Unknown directive ${tokens[0]}: expected $ORIGIN, $TTL or a record`);
      }
      continue;
    }

    let owner: string;
    if (entry.ownerBlank) {
      if (lastOwner === undefined) {
        error('This line starts with a space, so it continues the previous name, but there is none: put the name first');
        continue;
      }
      owner = lastOwner;
    } else {
      owner = absolute(tokens.shift() as string, origin);
    }
    lastOwner = owner;

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
    const typeToken = tokens.shift();
    if (typeToken === undefined) {
      error('The record type is missing: expected a line such as "www 3600 IN A 192.0.2.10"');
      continue;
    }
    let type = typeToken.toUpperCase();
    const typeNumber = /^TYPE([0-9]{1,5})$/.exec(type);
    if (typeNumber) type = typeByNumber(Number(typeNumber[1])) ?? type;
    // TTLs as BIND reads them: the record's own, else $TTL, else the previous record's (RFC 1035), else the
    // SOA's minimum when the SOA itself has none; a record with none of these is refused, as BIND refuses it.
    let recordTtl: number;
    if (ttl !== undefined) {
      lastTtl = ttl;
      recordTtl = ttl;
    } else if (defaultTtl !== undefined) {
      recordTtl = defaultTtl;
    } else if (lastTtl !== undefined) {
      recordTtl = lastTtl;
    } else if (options.defaultTtl !== undefined) {
      recordTtl = options.defaultTtl;
    } else if (type === 'SOA' && tokens[6] !== undefined && parseTtl(tokens[6]).ok) {
      recordTtl = (parseTtl(tokens[6]) as { value: number }).value;
      defaultTtl = recordTtl;
    } else {
      error(`This record has no TTL, and nothing before it gives one: add a line such as $TTL ${DEFAULT_IMPORT_TTL} at the top of the file, or a TTL before the type`);
      continue;
    }

    if (recordClass !== 'IN') {
      skip(`Class ${recordClass} records are not DNS records of the internet (class IN): not imported`);
      continue;
    }
    if (PSEUDO_TYPES.has(type)) {
      skip(`${type} is a provider's own record type, not standard DNS: add an A, AAAA or CNAME record instead`);
      continue;
    }
    if (OTHER_TYPES.has(type) || /^TYPE[0-9]+$/.test(type)) {
      skip(`${type} records are not supported here`);
      continue;
    }
    if (!RECORD_TYPES.includes(type as RecordType)) {
      error(`Unknown record type "${typeToken}": expected one of ${RECORD_TYPES.join(', ')}`);
      continue;
    }
    const recordType = type as RecordType;
    if (tokens.length === 0) {
      error(`The ${recordType} record has no data: expected a value after the type`);
      continue;
    }
    if (!isAtOrBelow(owner, zone)) {
      skip(`${owner} is outside ${zone}: not imported`);
      continue;
    }
    if (recordType === 'SOA' && owner !== zone) {
      error(`An SOA record belongs at ${zone} itself, not at ${owner}: check the owner name (a name without a final dot is relative to $ORIGIN)`);
      continue;
    }
    if (recordType === 'SOA') {
      skip('The SOA record belongs to the DNS provider: not imported');
      continue;
    }
    if (recordType === 'NS' && owner === zone) {
      skip(`The name servers of ${zone} are set by the DNS provider: not imported`);
      continue;
    }
    const name = validateRecordName(`${owner}.`, zone);
    if (!name.ok) {
      error(name.message);
      continue;
    }

    let rdataText: string;
    if (tokens[0] === '\\#') {
      // RFC 3597 generic data of a known type: decoded to its usual text, then checked as any other.
      const generic = parseGenericRdata(tokens);
      const decoded = generic.ok ? rdataFromWire(recordType, generic.value) : generic;
      if (!decoded.ok) {
        error(decoded.message);
        continue;
      }
      rdataText = decoded.value;
    } else {
      for (const position of NAME_FIELDS[recordType] ?? []) {
        if (tokens[position] !== undefined) tokens[position] = absoluteTarget(tokens[position], origin);
      }
      rdataText = tokens.join(' ');
    }
    if ((recordType === 'TXT' || recordType === 'SPF') && tokens[0] !== '\\#') {
      // Unquoted words are separate strings in a zone file, as BIND reads them.
      const strings = tokenize(rdataText);
      if (!strings.ok) {
        error(strings.message);
        continue;
      }
      // BIND refuses a string over 255 bytes in a file (the form and the API split one for you instead).
      const long = strings.tokens.find((t) => t.bytes.length > 255);
      if (long) {
        error(`A string in a zone file is at most 255 bytes; this one has ${long.bytes.length}: split it into several quoted strings, "like" "this"`);
        continue;
      }
      rdataText = strings.tokens.map((t) => quoteBytes(t.bytes)).join(' ');
    }
    const rdata = validateRdata(recordType, rdataText);
    if (!rdata.ok) {
      error(rdata.message);
      continue;
    }
    const setKey = `${name.value}\u0000${recordType}`;
    const first = setTtls.get(setKey);
    if (first === undefined) {
      setTtls.set(setKey, { ttl: recordTtl, line });
    } else if (first.ttl !== recordTtl) {
      result.warnings.push({
        line,
        text: shown,
        message: `TTL ${recordTtl} differs from the first ${recordType} record of this name (line ${first.line}, TTL ${first.ttl}): one name and type share one TTL, so ${first.ttl} is used, as BIND does`,
      });
      recordTtl = first.ttl;
    }
    for (const message of rdataWarnings(recordType, rdata.value)) result.warnings.push({ line, text: shown, message });
    const record: ParsedZoneFile['records'][number] = { name: name.value, type: recordType, rdata: rdata.value, ttl: recordTtl };
    if (entry.comment) {
      const notes = readNotes(entry.comment);
      const problem = commentProblem(notes.comment) ?? tagsProblems(notes.tags)[0]?.message;
      if (problem) result.warnings.push({ line, text: shown, message: `The comment is not kept: ${problem}` });
      else {
        record.comment = notes.comment;
        record.tags = notes.tags;
      }
    }
    result.records.push(record);
  }
  return result;
}

const TYPE_ORDER = new Map<string, number>(RECORD_TYPES.map((type, index) => [type, index]));

/** Apex first, then names in alphabetical order; within a name, types in the order of RECORD_TYPES. */
export function compareRecords(a: ListedRecordLike, b: ListedRecordLike): number {
  if (a.name !== b.name) {
    if (a.name === '@') return -1;
    if (b.name === '@') return 1;
    return a.name < b.name ? -1 : 1;
  }
  if (a.type !== b.type) return (TYPE_ORDER.get(a.type) ?? 99) - (TYPE_ORDER.get(b.type) ?? 99);
  return a.rdata < b.rdata ? -1 : a.rdata > b.rdata ? 1 : 0;
}

/**
 * Writes records as a BIND zone file: a header comment, $ORIGIN and $TTL, then one record per line with absolute
 * owner names in aligned columns. Managed (parking) records are left out unless asked for.
 */
export function printZoneFile(zoneName: string, records: ListedRecordLike[], options: { includeManaged?: boolean; now?: Date } = {}): string {
  const steps = printZoneFileInSteps(zoneName, records, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Records written between two progress reports of printZoneFileInSteps. */
const STEP_RECORDS = 5000;

/**
 * printZoneFile a few thousand records at a time: it yields how many records are written, so a caller can show
 * progress and let the page breathe between steps (100,000 records take a second or two), and returns the text.
 */
export function* printZoneFileInSteps(
  zoneName: string,
  records: ListedRecordLike[],
  options: { includeManaged?: boolean; now?: Date } = {},
): Generator<{ written: number; total: number }, string> {
  const zone = normaliseZone(zoneName);
  const chosen = records.filter((r) => options.includeManaged || !r.managed).sort(compareRecords);
  const leftOut = records.length - chosen.length;
  const managers = new Set(records.filter((r) => r.managed).map((r) => managedWords(r.managedBy).by));
  const leftOutWords = `${leftOut} ${managers.size === 1 ? [...managers][0] : 'managed'} record${leftOut === 1 ? '' : 's'} left out`;
  const rows = chosen.map((r) => ({
    owner: `${fullName(r.name, zone)}.`,
    ttl: String(r.ttl),
    type: r.type,
    rdata: r.managed ? `${r.rdata} ; managed by ${managedWords(r.managedBy).by}` : [r.rdata, printNotes(r)].filter(Boolean).join(' '),
  }));
  // A loop, not Math.max(...): spreading 100,000 arguments can overflow the stack.
  let ownerWidth = 0;
  let ttlWidth = 0;
  let typeWidth = 0;
  for (const row of rows) {
    ownerWidth = Math.max(ownerWidth, row.owner.length);
    ttlWidth = Math.max(ttlWidth, row.ttl.length);
    typeWidth = Math.max(typeWidth, row.type.length);
  }
  const now = options.now ?? new Date();
  const lines = [
    `; Zone file for ${zone}`,
    `; Exported ${now.toISOString()}: ${rows.length} record${rows.length === 1 ? '' : 's'}${leftOut > 0 ? ` (${leftOutWords})` : ''}`,
    '; Times to live (TTL) are in seconds. The SOA and NS records of the zone belong to the DNS provider.',
    `$ORIGIN ${zone}.`,
    `$TTL ${DEFAULT_IMPORT_TTL}`,
    '',
  ];
  for (const [index, row] of rows.entries()) {
    if (index > 0 && index % STEP_RECORDS === 0) yield { written: index, total: rows.length };
    lines.push(`${row.owner.padEnd(ownerWidth)}  ${row.ttl.padStart(ttlWidth)}  IN  ${row.type.padEnd(typeWidth)}  ${row.rdata}`);
  }
  return `${lines.join('\n')}\n`;
}
