/** Host names people type or paste: turned into lowercase ASCII (punycode for IDN), or a reason why not. */

export type DomainNameResult = { ok: true; name: string; label: string; tld: string } | { ok: false; reason: string };

const LDH_LABEL = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Converts a host name with non-ASCII characters to its ASCII (punycode) form through the WHATWG URL parser,
 * which browsers and Node share. Returns null when the parser refuses the name.
 */
export function toAsciiHost(input: string): string | null {
  if (isAscii(input)) return input.toLowerCase();
  try {
    const host = new URL(`http://${input}`).hostname;
    return host === '' ? null : host;
  } catch {
    return null;
  }
}

/** Why one label of a registrable name is unusable, or null when it is fine. */
export function labelProblem(label: string): string | null {
  if (label === '') return 'A name cannot have an empty part (two dots in a row, or a dot at the start)';
  if (label.length > 63) return `At most 63 characters per label ("${label.slice(0, 12)}…" has ${label.length})`;
  if (label.startsWith('-') || label.endsWith('-')) return 'A label cannot start or end with a hyphen';
  if (!LDH_LABEL.test(label)) return 'Use letters, digits and hyphens only';
  if (label.slice(2, 4) === '--' && !label.startsWith('xn--')) {
    return 'Two hyphens in the 3rd and 4th positions are reserved for xn-- (international) names';
  }
  return null;
}

/** Removes what people paste around a name: spaces, a scheme, credentials, a port, a path, a trailing dot. */
function stripUrl(input: string): string {
  let text = input.trim();
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  text = text.replace(/[/?#].*$/s, '');
  text = text.replace(/^[^@]*@/, '');
  text = text.replace(/:\d*$/, '');
  return text.replace(/\.$/, '');
}

/**
 * Parses a domain name typed into search into a registrable second-level name, `label.tld`.
 * "https://Example.com/x" gives example.com; "www.example.com" gives example.com (people paste the web address);
 * "bücher.de" gives xn--bcher-kva.de. Which endings are on sale is the service's business: syntax only here.
 */
export function parseDomainName(input: string): DomainNameResult {
  const stripped = stripUrl(input);
  if (stripped === '') return { ok: false, reason: 'Enter a domain name such as example.com' };
  if (/\s/.test(stripped)) return { ok: false, reason: 'A domain name cannot contain spaces: use letters, digits and hyphens' };
  if (stripped.includes('_')) return { ok: false, reason: 'Use letters, digits and hyphens (no underscores)' };
  const ascii = toAsciiHost(stripped);
  if (ascii === null) return { ok: false, reason: 'This name has characters a domain name cannot hold: use letters, digits and hyphens' };
  if (ascii.endsWith('.')) return { ok: false, reason: 'A name cannot end with two dots' };
  if (/^[0-9.]+$/.test(ascii) || ascii.includes(':')) return { ok: false, reason: 'That is an IP address: enter a domain name such as example.com' };
  let labels = ascii.split('.');
  if (labels.length === 3 && labels[0] === 'www') labels = labels.slice(1);
  if (labels.length === 1) {
    const problem = labelProblem(labels[0]);
    return { ok: false, reason: problem ?? 'Add an ending such as .com' };
  }
  for (const label of labels) {
    const problem = labelProblem(label);
    if (problem) return { ok: false, reason: problem };
  }
  if (labels.length > 2) {
    return {
      ok: false,
      reason: `Enter just a name and its ending, such as example.com: ${labels.join('.')} has ${labels.length} parts (subdomains are set up with DNS records once you own the domain)`,
    };
  }
  const [label, tld] = labels;
  if (!/^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) {
    return { ok: false, reason: 'The ending must be letters only, at least two, such as .com' };
  }
  return { ok: true, name: `${label}.${tld}`, label, tld };
}
