import { toAsciiHost } from '../names/domain-name.ts';
import { isIpv4, parseIpv6 } from './ip.ts';
import { withoutTrailingDot } from './names.ts';
import { fail, MAX_NAME_LENGTH, ok, type Result } from './types.ts';

/** A label of a host name inside record data: letters, digits, hyphens and underscores (e.g. _domainkey). */
const TARGET_LABEL = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/;

export interface HostOptions {
  /** What the field is, for messages: "The CNAME target", "The mail server". */
  what: string;
  /** An example of a good value, ending in a dot. */
  example: string;
  /** Whether "." (the root: "no service" for MX and SRV, "the owner" for SVCB) is allowed. */
  allowRoot?: boolean;
}

/**
 * Normalises a host name inside record data to a lowercase FQDN with a trailing dot. A name typed without the
 * dot is taken as complete (people write "mail.example.com", not a name relative to the zone) and the dot is
 * added; a single label without a dot ("mail") is refused because it is almost always a half-typed name.
 */
export function normaliseHost(input: string, options: HostOptions): Result<string> {
  const { what, example } = options;
  const text = input.trim();
  if (text === '') return fail(`${what} is missing: enter a host name such as ${example}`);
  if (text === '.') return options.allowRoot ? ok('.') : fail(`${what} cannot be "." : enter a host name such as ${example}`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.includes('/')) {
    return fail(`${what} is a host name such as ${example}, not a web address`);
  }
  if (text.includes('@')) return fail(`${what} is a host name such as ${example}, not an e-mail address`);
  const bare = withoutTrailingDot(text);
  if (isIpv4(bare) || (bare.includes(':') && parseIpv6(bare))) {
    return fail(`${what} must be a host name such as ${example}, not an IP address (an address goes in an A or AAAA record)`);
  }
  if (/\s/.test(bare)) return fail(`${what} cannot contain spaces: enter a host name such as ${example}`);
  const ascii = toAsciiHost(bare);
  if (ascii === null) return fail(`${what} has characters a host name cannot hold: use letters, digits, hyphens and dots, as in ${example}`);
  const labels = ascii.split('.');
  for (const label of labels) {
    if (label === '') return fail(`${what} has an empty part (two dots in a row): write it like ${example}`);
    if (label.length > 63) return fail(`${what} has a part longer than 63 characters: each part between dots is at most 63`);
    if (label.startsWith('-') || label.endsWith('-')) return fail(`${what} has a part that starts or ends with a hyphen: write it like ${example}`);
    if (!TARGET_LABEL.test(label)) return fail(`${what} may hold letters, digits, hyphens, underscores and dots only, as in ${example}`);
  }
  if (!text.endsWith('.') && labels.length === 1) {
    return fail(`${what} needs the full host name, such as ${example} (not just "${text}")`);
  }
  if (/^[0-9]+$/.test(labels[labels.length - 1])) {
    return fail(`${what} must end with a name such as .com, not a number: write it like ${example}`);
  }
  if (ascii.length > MAX_NAME_LENGTH) return fail(`${what} is longer than ${MAX_NAME_LENGTH} characters`);
  return ok(`${ascii}.`);
}
