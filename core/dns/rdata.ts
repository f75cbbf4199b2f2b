import type { RecordType } from '../wire/dns.ts';
import { normaliseHost } from './host.ts';
import { canonicalIpv6, isIpv4, parseIpv4, parseIpv6 } from './ip.ts';
import { chunkBytes, fromUtf8, quoteBytes, quoteText, tokenize, tokenText, utf8, type Token } from './presentation.ts';
import { parseTtl } from './ttl.ts';
import { fail, ok, type Result } from './types.ts';
import { isSpf, spfProblems } from '../mail/spf.ts';

/** One good value per type, in the stored form. */
export const RDATA_EXAMPLES: Record<RecordType, string> = {
  A: '192.0.2.10',
  AAAA: '2001:db8::10',
  CNAME: 'target.example.net.',
  MX: '10 mail.example.com.',
  TXT: '"v=spf1 include:_spf.example.com ~all"',
  NS: 'ns1.example.net.',
  SOA: 'ns1.example.net. hostmaster.example.com. 2024010101 7200 3600 1209600 3600',
  PTR: 'host.example.com.',
  SRV: '10 5 5060 sip.example.com.',
  CAA: '0 issue "letsencrypt.org"',
  DS: '12345 13 2 3F1A5C9D2B7E4F608A1C3D5E7F9081A2B3C4D5E6F708192A3B4C5D6E7F809A1B',
  TLSA: '3 1 1 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6',
  SSHFP: '4 2 123456789ABCDEF67890123456789ABCDEF67890123456789ABCDEF123456789',
  HTTPS: '1 . alpn=h2,h3',
  SVCB: '1 svc.example.com. alpn=h2 port=8443',
  NAPTR: '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.',
  SPF: '"v=spf1 include:_spf.example.com ~all"',
  ALIAS: 'app.example.net.',
};

/** The contract's limit on the text of one TXT record, in bytes, all strings together. */
const TXT_MAX_TOTAL = 65535;
const TXT_MAX_STRING = 255;

type Validator = (rdata: string) => Result<string>;

const CURLY_QUOTES = 'Replace the curly quotes “ ” (copied from a document) with straight ones ("), or leave the quotes out';
const hasCurlyQuotes = (text: string) => /[\u201c\u201d]/.test(text);

function uint(token: string | undefined, max: number): number | null {
  if (token === undefined || !/^[0-9]+$/.test(token)) return null;
  const n = Number(token);
  return n <= max ? n : null;
}

/** Splits plain fields (no quoting) on whitespace. */
function fields(rdata: string): string[] {
  const trimmed = rdata.trim();
  return trimmed === '' ? [] : trimmed.split(/\s+/);
}

function hexField(parts: string[], what: string, example: string): Result<string> {
  const hex = parts.join('');
  if (hex === '') return fail(`${what} is missing: add it in hexadecimal, e.g. ${example}`);
  if (!/^[0-9a-fA-F]+$/.test(hex)) return fail(`${what} must be hexadecimal (0-9 and A-F), e.g. ${example}`);
  if (hex.length % 2 !== 0) return fail(`${what} has an odd number of hexadecimal digits (${hex.length}): a digit is missing or extra`);
  return ok(hex.toUpperCase());
}

function hexLength(hex: string, expected: number | undefined, what: string): Result<string> {
  if (expected !== undefined && hex.length !== expected) {
    return fail(`${what} is ${expected} hexadecimal characters; this one has ${hex.length}`);
  }
  return ok(hex);
}

const validateA: Validator = (rdata) => {
  const text = rdata.trim();
  const example = 'Enter an IPv4 address such as 192.0.2.10';
  if (text === '') return fail(example);
  if (isIpv4(text)) return ok(text);
  if (text.includes(':') && parseIpv6(text)) return fail(`${text} is an IPv6 address: use an AAAA record for it. ${example}`);
  const parts = text.split('.');
  if (parts.length === 4 && parts.every((p) => /^[0-9]+$/.test(p))) {
    if (parts.some((p) => Number(p) > 255)) return fail(`Each of the four numbers of an IPv4 address is 0 to 255. ${example}`);
    const fixed = parts.map((p) => String(Number(p))).join('.');
    return fail(`Remove the leading zeros: write ${fixed}`);
  }
  if (/[a-z]/i.test(text)) return fail(`An A record holds an IP address, not a name (for a name use CNAME). ${example}`);
  return fail(`${example} (four numbers 0-255 separated by dots)`);
};

const validateAaaa: Validator = (rdata) => {
  const text = rdata.trim();
  const example = 'Enter an IPv6 address such as 2001:db8::10';
  if (text === '') return fail(example);
  if (isIpv4(text)) return fail(`${text} is an IPv4 address: use an A record for it. ${example}`);
  if (text.includes('%')) return fail(`Remove the zone index (the part from %): it means nothing in DNS. ${example}`);
  if (text.includes('/')) return fail(`Enter one address, not a network (remove the /prefix). ${example}`);
  const canonical = canonicalIpv6(text);
  return canonical ? ok(canonical) : fail(`${example} (eight groups of up to four hex digits; "::" may stand for zeros once)`);
};

function hostValidator(type: 'CNAME' | 'NS' | 'PTR' | 'ALIAS'): Validator {
  const what = { CNAME: 'The CNAME target', NS: 'The name server', PTR: 'The PTR target', ALIAS: 'The ALIAS target' }[type];
  return (rdata) => {
    const text = rdata.trim();
    if (/\s/.test(text)) return fail(`${what} is a single host name such as ${RDATA_EXAMPLES[type]}`);
    return normaliseHost(text, { what, example: RDATA_EXAMPLES[type] });
  };
}

const validateMx: Validator = (rdata) => {
  const parts = fields(rdata);
  const example = 'such as 10 mail.example.com.';
  if (parts.length === 1 && !/^[0-9]+$/.test(parts[0])) {
    return fail(`Put a priority before the mail server, ${example} (lower numbers are tried first)`);
  }
  if (parts.length !== 2) return fail(`Enter a priority and a mail server, ${example}`);
  const priority = uint(parts[0], 65535);
  if (priority === null) return fail(`The priority is a whole number from 0 to 65535, ${example}`);
  const host = normaliseHost(parts[1], { what: 'The mail server', example: 'mail.example.com.', allowRoot: true });
  return host.ok ? ok(`${priority} ${host.value}`) : host;
};

/** Parses TXT input: quoted strings as written, or one unquoted text stored as it reads. */
function txtStrings(rdata: string): Result<Uint8Array[]> {
  const text = rdata.trim();
  if (text === '') return fail('Enter the text, e.g. v=spf1 include:_spf.example.com ~all (an empty value is written "")');
  if (/^[\u201c\u201d]|[\u201c\u201d]$/.test(text)) return fail(CURLY_QUOTES);
  if (!text.startsWith('"')) return ok(chunkBytes(utf8(text)));
  const tokenized = tokenize(text);
  if (!tokenized.ok) return fail(`${tokenized.message}, e.g. "v=spf1 -all"`);
  const { tokens } = tokenized;
  if (tokens.some((t) => !t.quoted)) {
    return fail('Put each part in double quotes, like "part one" "part two", or enter the whole text without any quotes');
  }
  if (tokens.length === 1) return ok(chunkBytes(tokens[0].bytes));
  const long = tokens.findIndex((t) => t.bytes.length > TXT_MAX_STRING);
  if (long >= 0) {
    return fail(
      `Each quoted string holds at most ${TXT_MAX_STRING} bytes; string ${long + 1} has ${tokens[long].bytes.length}. ` +
        'Split it into more quoted strings, or enter the text as one value and it is split for you',
    );
  }
  return ok(tokens.map((t) => t.bytes));
}

const validateTxt: Validator = (rdata) => {
  const strings = txtStrings(rdata);
  if (!strings.ok) return strings;
  const total = strings.value.reduce((sum, s) => sum + s.length, 0);
  if (total > TXT_MAX_TOTAL) {
    return fail(`The text is too long: at most ${TXT_MAX_TOTAL.toLocaleString('en-US')} bytes in all (this has ${total.toLocaleString('en-US')})`);
  }
  // An SPF record (its strings read as one text, RFC 7208 §3.3) must parse: a malformed one makes receivers ignore it.
  const text = strings.value.map(fromUtf8).join('');
  const spf = isSpf(text) ? spfProblems(text) : [];
  if (spf.length > 0) return fail(`This SPF record is malformed: ${spf.join('; ')}. Receivers would ignore it (SPF syntax, RFC 7208)`, 'DNS_SPF_SYNTAX');
  return ok(strings.value.map(quoteBytes).join(' '));
};

const validateSrv: Validator = (rdata) => {
  const parts = fields(rdata);
  const example = 'such as 10 5 5060 sip.example.com. (priority, weight, port, target)';
  if (parts.length !== 4) return fail(`Enter four fields, ${example}`);
  const [priority, weight, port] = parts.slice(0, 3).map((p) => uint(p, 65535));
  const names = ['priority', 'weight', 'port'];
  const bad = [priority, weight, port].findIndex((n) => n === null);
  if (bad >= 0) return fail(`The ${names[bad]} is a whole number from 0 to 65535, ${example}`);
  const target = normaliseHost(parts[3], { what: 'The SRV target', example: 'sip.example.com.', allowRoot: true });
  return target.ok ? ok(`${priority} ${weight} ${port} ${target.value}`) : target;
};

/** The property tags of RFC 8659 and its IANA registry (RFC 9495 issuemail, issuevmc; RFC 8657 contact tags). */
const CAA_TAGS = ['issue', 'issuewild', 'iodef', 'issuemail', 'issuevmc', 'contactemail', 'contactphone'] as const;
const ISSUER_TAGS = new Set(['issue', 'issuewild', 'issuemail', 'issuevmc']);
/** RFC 8659 §4.1: a tag is 1-15 ASCII letters and digits. */
const CAA_TAG_SYNTAX = /^[a-z0-9]{1,15}$/i;

function caaValueProblem(tag: string, value: string): string | null {
  if (tag === 'iodef') {
    return /^(mailto:[^\s@]+@[^\s@]+|https?:\/\/\S+)$/i.test(value)
      ? null
      : 'An iodef value is where to send reports: a mailto: or https:// address, e.g. 0 iodef "mailto:security@example.com"';
  }
  if (tag === 'contactemail') {
    return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? null : 'A contactemail value is one e-mail address, e.g. 0 contactemail "security@example.com"';
  }
  if (tag === 'contactphone') {
    return /^\+[0-9][0-9 ().-]{5,30}$/.test(value) ? null : 'A contactphone value is a phone number in international form, e.g. 0 contactphone "+1 (555) 123-4567"';
  }
  if (!ISSUER_TAGS.has(tag)) return null;
  const [issuer] = value.split(';');
  const domain = issuer.trim();
  if (domain === '' && value.trim() !== '' && !value.trim().startsWith(';')) return `An ${tag} value is a CA domain such as "letsencrypt.org"`;
  if (domain !== '' && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i.test(domain)) {
    return `An ${tag} value names a certificate authority by its domain, e.g. "letsencrypt.org" (or ";" to allow none)`;
  }
  return null;
}

const isKnownCaaTag = (tag: string) => (CAA_TAGS as readonly string[]).includes(tag.toLowerCase());

const validateCaa: Validator = (rdata) => {
  if (hasCurlyQuotes(rdata)) return fail(CURLY_QUOTES);
  const example = 'such as 0 issue "letsencrypt.org"';
  const tokenized = tokenize(rdata);
  if (!tokenized.ok) return fail(`${tokenized.message}, ${example}`);
  const { tokens } = tokenized;
  if (tokens.length < 3) return fail(`Enter flags, a tag and a value, ${example}`);
  const flags = uint(tokens[0].raw, 255);
  if (flags === null) return fail(`The flags are a number from 0 to 255 (usually 0, or 128 for critical), ${example}`);
  if (!CAA_TAG_SYNTAX.test(tokens[1].raw)) {
    return fail(`The tag is one word of letters and digits such as ${CAA_TAGS.join(', ')} (not "${tokens[1].raw}"), ${example}`);
  }
  // A registered tag is stored lowercase; an unknown one is kept as written (the dashboard warns about it).
  const tag = isKnownCaaTag(tokens[1].raw) ? tokens[1].raw.toLowerCase() : tokens[1].raw;
  let value: string;
  if (tokens.length === 3) value = tokenText(tokens[2]);
  else if (tokens.slice(2).every((t) => !t.raw.includes('"'))) value = tokens.slice(2).map(tokenText).join(' ');
  else return fail(`Put the whole value in one pair of double quotes, ${example}`);
  const problem = caaValueProblem(tag, value);
  return problem ? fail(problem) : ok(`${flags} ${tag} ${quoteText(value)}`);
};

/**
 * What is valid but worth a second look, in words: a CAA tag outside RFC 8659's registry is kept, but CAs ignore
 * it (or, flagged critical, refuse to issue at all).
 */
export function rdataWarnings(type: RecordType, rdata: string): string[] {
  if (type !== 'CAA') return [];
  const tokenized = tokenize(rdata);
  if (!tokenized.ok || tokenized.tokens.length < 2) return [];
  const [flags, tag] = tokenized.tokens;
  if (isKnownCaaTag(tag.raw)) return [];
  const critical = (Number(flags.raw) & 128) !== 0;
  return [
    `"${tag.raw}" is not a CAA tag of RFC 8659's registry (${CAA_TAGS.join(', ')}): ` +
      (critical ? 'with the critical flag (128) set, every CA refuses to issue certificates for this name' : 'CAs ignore it; check the spelling'),
  ];
}

const validateSoa: Validator = (rdata) => {
  const parts = fields(rdata.replace(/[()]/g, ' '));
  const example = 'such as ns1.example.net. hostmaster.example.com. 2024010101 7200 3600 1209600 3600';
  if (parts.length !== 7) return fail(`An SOA record has seven fields (name server, mailbox, serial, refresh, retry, expire, minimum), ${example}`);
  const mname = normaliseHost(parts[0], { what: 'The primary name server', example: 'ns1.example.net.' });
  if (!mname.ok) return mname;
  if (parts[1].includes('@')) return fail('Write the mailbox as a name, with a dot for the @: hostmaster.example.com.');
  const rname = normaliseHost(parts[1], { what: 'The mailbox', example: 'hostmaster.example.com.' });
  if (!rname.ok) return rname;
  const serial = uint(parts[2], 4294967295);
  if (serial === null) return fail(`The serial is a whole number from 0 to 4294967295, ${example}`);
  const timers: number[] = [];
  for (const [i, label] of ['refresh', 'retry', 'expire', 'minimum'].entries()) {
    const parsed = parseTtl(parts[3 + i]);
    if (!parsed.ok) return fail(`The ${label} time is a number of seconds (or 1h, 1d…), ${example}`);
    timers.push(parsed.value);
  }
  return ok([mname.value, rname.value, serial, ...timers].join(' '));
};

const DS_DIGEST_LENGTHS: Record<number, number> = { 1: 40, 2: 64, 3: 64, 4: 96 };
const DS_DIGEST_NAMES: Record<number, string> = { 1: 'SHA-1', 2: 'SHA-256', 3: 'GOST', 4: 'SHA-384' };

const validateDs: Validator = (rdata) => {
  const parts = fields(rdata);
  const example = `such as ${RDATA_EXAMPLES.DS.slice(0, 24)}… (key tag, algorithm, digest type, digest)`;
  if (parts.length < 4) return fail(`Enter four fields, ${example}`);
  const keyTag = uint(parts[0], 65535);
  if (keyTag === null) return fail(`The key tag is a number from 0 to 65535, ${example}`);
  const algorithm = uint(parts[1], 255);
  if (algorithm === null) return fail(`The algorithm is a number from 0 to 255 (13 = ECDSA P-256), ${example}`);
  const digestType = uint(parts[2], 255);
  if (digestType === null || digestType === 0) return fail(`The digest type is 1 (SHA-1), 2 (SHA-256) or 4 (SHA-384), ${example}`);
  const hex = hexField(parts.slice(3), 'The digest', '3F1A5C9D…');
  if (!hex.ok) return hex;
  const name = DS_DIGEST_NAMES[digestType];
  const length = hexLength(hex.value, DS_DIGEST_LENGTHS[digestType], `A ${name ?? ''} digest (type ${digestType})`);
  return length.ok ? ok(`${keyTag} ${algorithm} ${digestType} ${length.value}`) : length;
};

const validateTlsa: Validator = (rdata) => {
  const parts = fields(rdata);
  const example = 'such as 3 1 1 0C72AC70… (usage, selector, matching type, data)';
  if (parts.length < 4) return fail(`Enter four fields, ${example}`);
  const usage = uint(parts[0], 3);
  if (usage === null) return fail(`The usage is 0 to 3 (3 = the server's own certificate), ${example}`);
  const selector = uint(parts[1], 1);
  if (selector === null) return fail(`The selector is 0 (whole certificate) or 1 (public key), ${example}`);
  const matching = uint(parts[2], 2);
  if (matching === null) return fail(`The matching type is 0 (exact), 1 (SHA-256) or 2 (SHA-512), ${example}`);
  const hex = hexField(parts.slice(3), 'The certificate data', '0C72AC70…');
  if (!hex.ok) return hex;
  const expected = { 1: 64, 2: 128 }[matching];
  const length = hexLength(hex.value, expected, `A ${matching === 1 ? 'SHA-256' : 'SHA-512'} hash (matching type ${matching})`);
  return length.ok ? ok(`${usage} ${selector} ${matching} ${length.value}`) : length;
};

const validateSshfp: Validator = (rdata) => {
  const parts = fields(rdata);
  const example = 'such as 4 2 123456789ABC… (algorithm, fingerprint type, fingerprint)';
  if (parts.length < 3) return fail(`Enter three fields, ${example}`);
  const algorithm = uint(parts[0], 255);
  if (algorithm === null || algorithm === 0) return fail(`The algorithm is 1 (RSA), 2 (DSA), 3 (ECDSA), 4 (Ed25519) or 6 (Ed448), ${example}`);
  const fpType = uint(parts[1], 255);
  if (fpType !== 1 && fpType !== 2) return fail(`The fingerprint type is 1 (SHA-1) or 2 (SHA-256), ${example}`);
  const hex = hexField(parts.slice(2), 'The fingerprint', '123456789ABC…');
  if (!hex.ok) return hex;
  const length = hexLength(hex.value, fpType === 1 ? 40 : 64, `A ${fpType === 1 ? 'SHA-1' : 'SHA-256'} fingerprint (type ${fpType})`);
  return length.ok ? ok(`${algorithm} ${fpType} ${length.value}`) : length;
};

/** SvcParamKeys of RFC 9460 and later registrations, by number. */
const SVC_KEYS: Record<string, number> = {
  mandatory: 0,
  alpn: 1,
  'no-default-alpn': 2,
  port: 3,
  ipv4hint: 4,
  ech: 5,
  ipv6hint: 6,
  dohpath: 7,
  ohttp: 8,
};

function svcKeyNumber(key: string): number | null {
  if (key in SVC_KEYS) return SVC_KEYS[key];
  const match = /^key([0-9]{1,5})$/.exec(key);
  return match && Number(match[1]) <= 65535 ? Number(match[1]) : null;
}

function svcValue(key: string, value: string | null): Result<string | null> {
  const needs = (example: string) => fail<string | null>(`${key} needs a value, e.g. ${key}=${example}`);
  switch (key) {
    case 'no-default-alpn':
    case 'ohttp':
      return value === null ? ok(null) : fail(`${key} takes no value: write just ${key}`);
    case 'port': {
      if (value === null) return needs('8443');
      const port = uint(value, 65535);
      return port === null ? fail('port is a number from 0 to 65535, e.g. port=8443') : ok(String(port));
    }
    case 'alpn':
      if (value === null || value === '') return needs('h2,h3');
      return value.split(',').every((id) => id !== '') ? ok(value) : fail('alpn lists protocol ids separated by commas, e.g. alpn=h2,h3');
    case 'mandatory': {
      if (value === null || value === '') return needs('alpn,port');
      const keys = value.split(',');
      const unknown = keys.find((k) => svcKeyNumber(k) === null || k === 'mandatory');
      return unknown === undefined ? ok(keys.join(',')) : fail(`mandatory lists other keys, and "${unknown}" is not one`);
    }
    case 'ipv4hint': {
      if (value === null || value === '') return needs('192.0.2.1');
      const bad = value.split(',').find((ip) => parseIpv4(ip) === null);
      return bad === undefined ? ok(value) : fail(`ipv4hint lists IPv4 addresses separated by commas; "${bad}" is not one`);
    }
    case 'ipv6hint': {
      if (value === null || value === '') return needs('2001:db8::1');
      const ips = value.split(',').map((ip) => canonicalIpv6(ip));
      return ips.every((ip) => ip !== null) ? ok(ips.join(',')) : fail('ipv6hint lists IPv6 addresses separated by commas, e.g. ipv6hint=2001:db8::1');
    }
    case 'ech':
      if (value === null || value === '') return needs('AEn+DQBF…');
      return /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? ok(value) : fail('ech is base64 text (letters, digits, + and /)');
    case 'dohpath':
      if (value === null || value === '') return needs('/dns-query{?dns}');
      return value.includes('{?dns}') ? ok(value) : fail('dohpath is a URI template with {?dns}, e.g. dohpath=/dns-query{?dns}');
    default:
      return ok(value);
  }
}

function svcParamText(key: string, value: string | null): string {
  if (value === null) return key;
  const plain = /^[\x21-\x7e]+$/.test(value) && !/["();\\]/.test(value);
  return plain ? `${key}=${value}` : `${key}=${quoteText(value)}`;
}

function validateSvcb(type: 'HTTPS' | 'SVCB'): Validator {
  return (rdata) => {
    const example = `such as ${RDATA_EXAMPLES[type]} (priority, target, parameters)`;
    if (hasCurlyQuotes(rdata)) return fail(CURLY_QUOTES);
    const tokenized = tokenize(rdata);
    if (!tokenized.ok) return fail(`${tokenized.message}, ${example}`);
    const [prioToken, targetToken, ...paramTokens] = tokenized.tokens;
    if (!prioToken || !targetToken) return fail(`Enter a priority and a target, ${example}`);
    const priority = uint(prioToken.raw, 65535);
    if (priority === null) return fail(`The priority is a number from 0 to 65535 (0 = alias), ${example}`);
    const target = normaliseHost(targetToken.raw, { what: `The ${type} target`, example: 'svc.example.com. (or "." for this name)', allowRoot: true });
    if (!target.ok) return target;
    if (priority === 0 && paramTokens.length > 0) {
      return fail('Priority 0 is alias mode, which takes no parameters: remove them or use priority 1 or more');
    }
    const params = new Map<number, string>();
    for (const token of paramTokens) {
      const text = tokenText(token);
      const eq = text.indexOf('=');
      const key = (eq < 0 ? text : text.slice(0, eq)).toLowerCase();
      const number = svcKeyNumber(key);
      if (number === null) return fail(`Unknown parameter "${key}": use alpn, port, ipv4hint, ipv6hint, ech, mandatory, no-default-alpn or keyNNNNN`);
      if (params.has(number)) return fail(`The parameter ${key} appears twice: give each parameter once`);
      const value = svcValue(key, eq < 0 ? null : text.slice(eq + 1));
      if (!value.ok) return value;
      params.set(number, svcParamText(key, value.value));
    }
    const sorted = [...params.entries()].sort((a, b) => a[0] - b[0]).map(([, text]) => text);
    return ok([String(priority), target.value, ...sorted].join(' '));
  };
}

const validateNaptr: Validator = (rdata) => {
  if (hasCurlyQuotes(rdata)) return fail(CURLY_QUOTES);
  const example = `such as ${RDATA_EXAMPLES.NAPTR}`;
  const tokenized = tokenize(rdata);
  if (!tokenized.ok) return fail(`${tokenized.message}, ${example}`);
  const tokens: Token[] = tokenized.tokens;
  if (tokens.length !== 6) return fail(`Enter six fields: order, preference, "flags", "service", "regexp" and replacement, ${example}`);
  const order = uint(tokens[0].raw, 65535);
  const preference = uint(tokens[1].raw, 65535);
  if (order === null || preference === null) return fail(`The order and preference are numbers from 0 to 65535, ${example}`);
  const flags = tokenText(tokens[2]).toUpperCase();
  if (!/^[A-Z0-9]*$/.test(flags)) return fail(`The flags are letters such as "S", "A", "U" or "P" (or ""), ${example}`);
  const service = tokenText(tokens[3]);
  if (!/^[A-Za-z0-9+:._-]*$/.test(service)) return fail(`The service is text such as "SIP+D2U" or "E2U+sip", ${example}`);
  const regexp = tokenText(tokens[4]);
  const replacement = normaliseHost(tokens[5].raw, { what: 'The replacement', example: '_sip._udp.example.com. (or ".")', allowRoot: true });
  if (!replacement.ok) return replacement;
  if (regexp !== '' && replacement.value !== '.') return fail('Use either a regexp or a replacement, not both: set the replacement to "." when you give a regexp');
  return ok([order, preference, quoteText(flags), quoteText(service), quoteText(regexp), replacement.value].join(' '));
};

const VALIDATORS: Record<RecordType, Validator> = {
  A: validateA,
  AAAA: validateAaaa,
  CNAME: hostValidator('CNAME'),
  NS: hostValidator('NS'),
  PTR: hostValidator('PTR'),
  MX: validateMx,
  TXT: validateTxt,
  SPF: validateTxt,
  SRV: validateSrv,
  CAA: validateCaa,
  SOA: validateSoa,
  DS: validateDs,
  TLSA: validateTlsa,
  SSHFP: validateSshfp,
  HTTPS: validateSvcb('HTTPS'),
  SVCB: validateSvcb('SVCB'),
  NAPTR: validateNaptr,
  ALIAS: hostValidator('ALIAS'),
};

/**
 * Validates record data for a type and returns its stored form: what a write answers with and what the
 * zone rules compare. Host names become lowercase with a trailing dot (added when missing), IPv6 takes its
 * RFC 5952 form, TXT becomes quoted strings of at most 255 bytes, hex becomes uppercase.
 */
export function validateRdata(type: RecordType, rdata: string): Result<string> {
  const validator = VALIDATORS[type];
  if (!validator) return fail(`Unknown record type ${String(type)}`);
  return validator(rdata);
}

/** Raw text to strings of at most 255 UTF-8 bytes, never cutting a character in two. */
export function splitTxt(value: string): string[] {
  return chunkBytes(utf8(value)).map(fromUtf8);
}

/** Raw text to TXT record data: '"chunk1" "chunk2"' with `"` and `\` escaped. */
export function txtToWire(value: string): string {
  return chunkBytes(utf8(value)).map(quoteBytes).join(' ');
}

/** TXT record data back to the text it carries: the strings joined, escapes resolved. */
export function txtFromWire(rdata: string): string {
  const tokenized = tokenize(rdata);
  if (!tokenized.ok) return rdata;
  const bytes = tokenized.tokens.flatMap((t) => Array.from(t.bytes));
  return fromUtf8(Uint8Array.from(bytes));
}
