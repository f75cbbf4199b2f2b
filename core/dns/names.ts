import { toAsciiHost } from '../names/domain-name.ts';
import { fail, MAX_NAME_LENGTH, ok, type Result } from './types.ts';

/** One label of a record name: the seed's zone-name pattern (underscores allowed first and last). */
const RECORD_LABEL = /^[a-z0-9_]([a-z0-9-]{0,61}[a-z0-9_])?$/;

/*
 * One home for DNS names. Stored record names are relative to their zone ('@' is the apex); zone names and names
 * compared on the wire are absolute, lowercase and without the root's trailing dot. The functions that take an
 * `apex` expect it in that form already and allocate nothing they need not: the name server and the signer call
 * them per query and per record of 100,000-record zones.
 */

/** 'Example.COM.' -> 'example.com': an absolute name as compared here (lowercase, no trailing dot), not trimmed. */
export function plainName(name: string): string {
  return withoutTrailingDot(name.toLowerCase());
}

/** A zone's (or any typed absolute name's) one spelling: trimmed, then plainName. ' Example.COM. ' -> 'example.com'. */
export function normaliseZone(zoneName: string): string {
  return plainName(zoneName.trim());
}

/** 'a.b.' -> 'a.b', case kept; one trailing dot only (the root's), so 'a..' -> 'a.'. */
export function withoutTrailingDot(name: string): string {
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** 'ns1.example.net' -> 'ns1.example.net.', case kept: the fully qualified form a zone file or NS/MX data writes. */
export function withTrailingDot(name: string): string {
  return name.endsWith('.') ? name : `${name}.`;
}

/** Whether two absolute names are the same name: case and the trailing dot do not count (RFC 4343). */
export function sameName(a: string, b: string): boolean {
  return plainName(a) === plainName(b);
}

/**
 * Whether `name` is `apex` or below it (both plain): 'www.example.com' and 'example.com' are, 'notexample.com' is
 * not. Compares in place: no `.${apex}` string is made per call.
 */
export function isAtOrBelow(name: string, apex: string): boolean {
  if (name.length === apex.length) return name === apex;
  return name.length > apex.length && name.charCodeAt(name.length - apex.length - 1) === 46 /* . */ && name.endsWith(apex);
}

/**
 * A relative name made absolute under a plain apex: '@' -> 'example.com', 'www' -> 'www.example.com', with the
 * root's dot when `dot`. Only '@' is the apex here: see fullName for a name typed by a person ('' too).
 */
export function toAbsolute(name: string, apex: string, dot = false): string {
  if (name === '@') return dot ? `${apex}.` : apex;
  return dot ? `${name}.${apex}.` : `${name}.${apex}`;
}

/** A plain name at or below a plain apex made relative: 'example.com' -> '@', 'www.example.com' -> 'www'. Unchecked: see isAtOrBelow. */
export function toRelative(name: string, apex: string): string {
  return name === apex ? '@' : name.slice(0, -(apex.length + 1));
}

/** '@' or '' -> 'example.com', 'www' -> 'www.example.com' (no trailing dot), the zone written in any case or with its dot. */
export function fullName(name: string, zoneName: string): string {
  return toAbsolute(name === '' ? '@' : name, normaliseZone(zoneName));
}

/** 'www.example.com(.)' -> 'www', 'example.com' -> '@'; a name outside the zone comes back without its dot. */
export function relativeName(fqdn: string, zoneName: string): string {
  const zone = normaliseZone(zoneName);
  const name = plainName(fqdn.trim());
  if (name === '@' || name === '') return '@';
  return isAtOrBelow(name, zone) ? toRelative(name, zone) : name;
}

/**
 * The name one label up: 'a.b.c' -> 'b.c', 'c' -> null, '@' -> null (relative names stop below the apex). A loop
 * over parents walks the ancestors without the array ancestorsOf makes, where that counts.
 */
export function parentName(name: string): string | null {
  const dot = name.indexOf('.');
  return dot < 0 ? null : name.slice(dot + 1);
}

/** 'a.b.c' -> ['b.c', 'c'], nearest first: the names above a relative name, apex excluded ('@' -> []). */
export function ancestorsOf(name: string): string[] {
  const out: string[] = [];
  for (let above = parentName(name); above !== null; above = parentName(above)) out.push(above);
  return out;
}

/**
 * A string whose plain order (<) is the DNS canonical order of names (RFC 4034 §6.1): labels from the root, joined by
 * NUL, which sorts before every byte a label holds, so a shorter label or name comes first. Sorting 100,000 names by
 * these keys is many times faster than comparing label by label. Case and a trailing dot are ignored; a name of one
 * label (lowercase) is its own key, made at no cost. For relative names, key the apex '' (it comes first).
 */
export function canonicalKey(name: string): string {
  const plain = plainName(name);
  return plain.includes('.') ? plain.split('.').reverse().join('\u0000') : plain;
}

export function nameTooLongMessage(name: string, zoneName: string): string {
  const length = fullName(name, zoneName).length;
  return `The full name ${name}.${normaliseZone(zoneName)} has ${length} characters; a DNS name is at most ${MAX_NAME_LENGTH}: shorten it`;
}

function labelMessage(label: string, leftmost: boolean): string | null {
  if (label === '') return 'A name cannot have an empty part: remove the extra dot';
  if (label === '*') return leftmost ? null : 'A wildcard (*) can only be the first part of a name, as in * or *.shop';
  if (label.includes('*')) return `"${label}": a wildcard is a whole "*" part, as in * or *.shop, not part of a word`;
  if (label.length > 63) return `Each part between dots is at most 63 characters; "${label.slice(0, 12)}…" has ${label.length}`;
  if (label.startsWith('-') || label.endsWith('-')) return `"${label}" starts or ends with a hyphen: a part of a name cannot`;
  if (/\s/.test(label)) return 'A name cannot contain spaces: use letters, digits and hyphens, such as www or mail';
  if (!RECORD_LABEL.test(label)) {
    return label.slice(1, -1).includes('_')
      ? `"${label}": an underscore may only start or end a part of a name, as in _dmarc`
      : `"${label}" has characters a name cannot hold: use letters, digits and hyphens, such as www or mail`;
  }
  return null;
}

/**
 * Validates a record name typed for a zone and returns it relative to the zone: '' or '@' -> '@', 'WWW' -> 'www',
 * 'www.example.com.' and 'www.example.com' -> 'www' (a name that ends with the zone is taken as absolute).
 */
export function validateRecordName(name: string, zoneName: string): Result<string> {
  const zone = normaliseZone(zoneName);
  let text = name.trim();
  if (text === '' || text === '@') return ok('@');
  const ascii = toAsciiHost(text);
  if (ascii === null) return fail('This name has characters a DNS name cannot hold: use letters, digits and hyphens, such as www');
  text = ascii;
  if (text.endsWith('.')) {
    const absolute = withoutTrailingDot(text);
    if (absolute === zone) return ok('@');
    if (!isAtOrBelow(absolute, zone)) {
      if (!absolute.includes('.') && absolute !== '') return fail(`Remove the final dot: write ${absolute} (for ${absolute}.${zone})`);
      return fail(`${absolute} is not inside ${zone}: enter a name inside the zone, such as www (for www.${zone})`);
    }
    text = toRelative(absolute, zone);
  } else if (text === zone) {
    return ok('@');
  } else if (isAtOrBelow(text, zone)) {
    text = toRelative(text, zone);
  }
  if (text.startsWith('@.')) return fail('Leave out "@": write the part before the zone only, such as www');
  for (const [index, label] of text.split('.').entries()) {
    const message = labelMessage(label, index === 0);
    if (message) return fail(message);
  }
  if (fullName(text, zone).length > MAX_NAME_LENGTH) return fail(nameTooLongMessage(text, zone));
  return ok(text);
}
