import { toAsciiHost } from '../names/domain-name.ts';
import { fail, MAX_NAME_LENGTH, ok, type Result } from './types.ts';

/** One label of a record name: the seed's zone-name pattern (underscores allowed first and last). */
const RECORD_LABEL = /^[a-z0-9_]([a-z0-9-]{0,61}[a-z0-9_])?$/;

/** A zone's (or any absolute name's) one spelling: trimmed, lowercase, no trailing dot. 'Example.COM.' -> 'example.com'. */
export function normaliseZone(zoneName: string): string {
  return zoneName.trim().toLowerCase().replace(/\.$/, '');
}

/** '@' -> 'example.com', 'www' -> 'www.example.com' (no trailing dot). */
export function fullName(name: string, zoneName: string): string {
  const zone = normaliseZone(zoneName);
  return name === '@' || name === '' ? zone : `${name}.${zone}`;
}

/** 'www.example.com(.)' -> 'www', 'example.com' -> '@'; a name outside the zone comes back without its dot. */
export function relativeName(fqdn: string, zoneName: string): string {
  const zone = normaliseZone(zoneName);
  const name = fqdn.trim().toLowerCase().replace(/\.$/, '');
  if (name === zone || name === '@' || name === '') return '@';
  return name.endsWith(`.${zone}`) ? name.slice(0, -(zone.length + 1)) : name;
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
    const absolute = text.slice(0, -1);
    if (absolute === zone) return ok('@');
    if (!absolute.endsWith(`.${zone}`)) {
      if (!absolute.includes('.') && absolute !== '') return fail(`Remove the final dot: write ${absolute} (for ${absolute}.${zone})`);
      return fail(`${absolute} is not inside ${zone}: enter a name inside the zone, such as www (for www.${zone})`);
    }
    text = absolute.slice(0, -(zone.length + 1));
  } else if (text === zone) {
    return ok('@');
  } else if (text.endsWith(`.${zone}`)) {
    text = text.slice(0, -(zone.length + 1));
  }
  if (text.startsWith('@.')) return fail('Leave out "@": write the part before the zone only, such as www');
  for (const [index, label] of text.split('.').entries()) {
    const message = labelMessage(label, index === 0);
    if (message) return fail(message);
  }
  if (fullName(text, zone).length > MAX_NAME_LENGTH) return fail(nameTooLongMessage(text, zone));
  return ok(text);
}
