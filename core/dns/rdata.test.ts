import { describe, expect, it } from 'vitest';
import { RECORD_TYPES, type RecordType } from '../wire/dns.ts';
import { RDATA_EXAMPLES, rdataWarnings, splitTxt, txtFromWire, txtToWire, validateRdata } from './rdata.ts';

const bytes = (text: string) => new TextEncoder().encode(text).length;
const hex64 = '0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6';

/** [type, input, stored form] */
const VALID: Array<[RecordType, string, string]> = [
  ['A', '192.0.2.10', '192.0.2.10'],
  ['A', '  0.0.0.0 ', '0.0.0.0'],
  ['A', '255.255.255.255', '255.255.255.255'],
  ['AAAA', '2001:db8::10', '2001:db8::10'],
  ['AAAA', '2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
  ['AAAA', '2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
  ['AAAA', '2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
  ['AAAA', '2600:1900:4000:1102:8000:0:0:0', '2600:1900:4000:1102:8000::'],
  ['AAAA', '::', '::'],
  ['AAAA', '::1', '::1'],
  ['AAAA', '1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
  ['AAAA', '::ffff:192.0.2.1', '::ffff:192.0.2.1'],
  ['AAAA', '64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
  ['CNAME', 'Target.Example.NET.', 'target.example.net.'],
  ['CNAME', 'target.example.net', 'target.example.net.'],
  ['CNAME', 's1._domainkey.u123.wl.sendgrid.net', 's1._domainkey.u123.wl.sendgrid.net.'],
  ['CNAME', 'bücher.example', 'xn--bcher-kva.example.'],
  ['CNAME', 'localhost.', 'localhost.'],
  ['NS', 'ns1.example.net', 'ns1.example.net.'],
  ['PTR', 'host.example.com.', 'host.example.com.'],
  ['MX', '10 mail.example.com', '10 mail.example.com.'],
  ['MX', '0   Mail.Example.com.', '0 mail.example.com.'],
  ['MX', '0 .', '0 .'],
  ['MX', '65535 mx.example.com.', '65535 mx.example.com.'],
  ['TXT', 'v=spf1 include:_spf.google.com ~all', '"v=spf1 include:_spf.google.com ~all"'],
  ['TXT', '"v=spf1 -all"', '"v=spf1 -all"'],
  ['TXT', '"part one" "part two"', '"part one" "part two"'],
  ['TXT', '""', '""'],
  ['TXT', 'he said "hi"', '"he said \\"hi\\""'],
  ['TXT', 'back\\slash', '"back\\\\slash"'],
  ['TXT', '"a\\"b" "c\\\\d"', '"a\\"b" "c\\\\d"'],
  ['TXT', '"semi\\059colon"', '"semi;colon"'],
  ['TXT', '"tab\\009here"', '"tab\\009here"'],
  ['TXT', 'café ☕', '"café ☕"'],
  ['TXT', 'a “quoted” word', '"a “quoted” word"'],
  ['TXT', 'x'.repeat(300), `"${'x'.repeat(255)}" "${'x'.repeat(45)}"`],
  ['TXT', `"${'y'.repeat(256)}"`, `"${'y'.repeat(255)}" "y"`],
  ['SPF', 'v=spf1 mx -all', '"v=spf1 mx -all"'],
  ['SRV', '10 5 5060 sip.example.com', '10 5 5060 sip.example.com.'],
  ['SRV', '0 0 0 .', '0 0 0 .'],
  ['CAA', '0 issue "letsencrypt.org"', '0 issue "letsencrypt.org"'],
  ['CAA', '0 ISSUE letsencrypt.org', '0 issue "letsencrypt.org"'],
  ['CAA', '128 issuewild ";"', '128 issuewild ";"'],
  ['CAA', '0 issue "letsencrypt.org; validationmethods=dns-01"', '0 issue "letsencrypt.org; validationmethods=dns-01"'],
  ['CAA', '0 iodef "mailto:security@example.com"', '0 iodef "mailto:security@example.com"'],
  ['CAA', '0 iodef https://example.com/caa-report', '0 iodef "https://example.com/caa-report"'],
  ['CAA', '0 IssueMail "letsencrypt.org"', '0 issuemail "letsencrypt.org"'],
  ['CAA', '0 issuevmc "digicert.com"', '0 issuevmc "digicert.com"'],
  ['CAA', '0 contactemail "security@example.com"', '0 contactemail "security@example.com"'],
  ['CAA', '0 contactphone "+1 (555) 123-4567"', '0 contactphone "+1 (555) 123-4567"'],
  ['CAA', '0 Policy42 "anything at all"', '0 Policy42 "anything at all"'],
  [
    'SOA',
    'ns1.example.net. hostmaster.example.com. ( 2024010101 1h 30m 1w 3600 )',
    'ns1.example.net. hostmaster.example.com. 2024010101 3600 1800 604800 3600',
  ],
  ['DS', `12345 13 2 ${hex64.toLowerCase()}`, `12345 13 2 ${hex64}`],
  ['DS', `60485 5 1 2BB183AF5F22588179A53B0A 98631FAD1A292118`, '60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118'],
  ['TLSA', `3 1 1 ${hex64}`, `3 1 1 ${hex64}`],
  ['TLSA', '3 0 0 30820122300d06', '3 0 0 30820122300D06'],
  ['SSHFP', `4 2 ${hex64.toLowerCase()}`, `4 2 ${hex64}`],
  ['SSHFP', '1 1 dd465c09cfa51fb45020cc83316fff21b9ec74ac', '1 1 DD465C09CFA51FB45020CC83316FFF21B9EC74AC'],
  ['HTTPS', '1 . alpn="h2,h3"', '1 . alpn=h2,h3'],
  ['HTTPS', '1 . port=443 alpn=h2 ipv6hint=2001:DB8::0:1', '1 . alpn=h2 port=443 ipv6hint=2001:db8::1'],
  ['HTTPS', '0 cdn.example.net', '0 cdn.example.net.'],
  ['SVCB', '1 svc.example.com mandatory=alpn alpn=h2 no-default-alpn', '1 svc.example.com. mandatory=alpn alpn=h2 no-default-alpn'],
  ['SVCB', '2 doh.example.net. alpn=h2 dohpath=/dns-query{?dns}', '2 doh.example.net. alpn=h2 dohpath=/dns-query{?dns}'],
  ['SVCB', '1 . key65000="some value"', '1 . key65000="some value"'],
  ['NAPTR', '100 10 "s" "SIP+D2U" "" _sip._udp.example.com', '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.'],
  ['NAPTR', '100 10 u E2U+sip "!^.*$!sip:info@example.com!" .', '100 10 "U" "E2U+sip" "!^.*$!sip:info@example.com!" .'],
];

/** [type, input, a fragment of the message] */
const INVALID: Array<[RecordType, string, string]> = [
  ['A', '', 'Enter an IPv4 address such as 192.0.2.10'],
  ['A', '192.0.2', 'Enter an IPv4 address such as 192.0.2.10'],
  ['A', '192.0.2.256', 'is 0 to 255'],
  ['A', '192.168.01.1', 'write 192.168.1.1'],
  ['A', '2001:db8::1', 'use an AAAA record'],
  ['A', 'example.com', 'not a name'],
  ['A', '192.0.2.1 192.0.2.2', 'Enter an IPv4 address'],
  ['AAAA', '192.0.2.1', 'use an A record'],
  ['AAAA', '2001:db8::1::2', 'Enter an IPv6 address such as 2001:db8::10'],
  ['AAAA', '2001:db8:0:0:0:0:0:0:1', 'Enter an IPv6 address'],
  ['AAAA', '12345::1', 'Enter an IPv6 address'],
  ['AAAA', 'fe80::1%eth0', 'zone index'],
  ['AAAA', '2001:db8::/32', 'not a network'],
  ['CNAME', '', 'enter a host name such as'],
  ['CNAME', 'mail', 'needs the full host name'],
  ['CNAME', 'https://example.com/page', 'not a web address'],
  ['CNAME', 'someone@example.com', 'not an e-mail address'],
  ['CNAME', '192.0.2.1', 'not an IP address'],
  ['CNAME', 'a..example.com', 'empty part'],
  ['CNAME', '-bad.example.com', 'starts or ends with a hyphen'],
  ['CNAME', 'bad!.example.com', 'letters, digits, hyphens'],
  ['CNAME', `${'a'.repeat(64)}.example.com`, 'longer than 63'],
  ['CNAME', 'two names.example.com', 'single host name'],
  ['CNAME', '.', 'cannot be "."'],
  ['NS', '192.0.2.53', 'not an IP address'],
  ['PTR', 'host', 'full host name'],
  ['MX', 'mail.example.com', 'Put a priority before the mail server'],
  ['MX', '10', 'Enter a priority and a mail server'],
  ['MX', '70000 mail.example.com', 'whole number from 0 to 65535'],
  ['MX', '-1 mail.example.com', 'whole number from 0 to 65535'],
  ['MX', '10 192.0.2.1', 'not an IP address'],
  ['TXT', '', 'Enter the text'],
  ['TXT', '   ', 'Enter the text'],
  ['TXT', '"never closed', 'not closed'],
  ['TXT', '"quoted" and not', 'Put each part in double quotes'],
  ['TXT', `"a" "${'b'.repeat(256)}"`, 'string 2 has 256'],
  ['TXT', '"bad\\999"', 'three of them, 000 to 255'],
  ['TXT', 'x'.repeat(65536), 'at most 65,535 bytes in all (this has 65,536)'],
  ['TXT', '“v=spf1 -all”', 'Replace the curly quotes'],
  ['CAA', '0 issue “letsencrypt.org”', 'Replace the curly quotes'],
  ['HTTPS', '1 . alpn=“h2”', 'Replace the curly quotes'],
  ['NAPTR', '100 10 “S” "SIP+D2U" "" _sip._udp.example.com.', 'Replace the curly quotes'],
  ['SRV', '10 5 sip.example.com', 'Enter four fields'],
  ['SRV', '10 5 99999 sip.example.com', 'The port is a whole number'],
  ['SRV', '10 x 5060 sip.example.com', 'The weight is a whole number'],
  ['SRV', '10 5 5060 sip', 'full host name'],
  ['CAA', '0 issue', 'Enter flags, a tag and a value'],
  ['CAA', '256 issue "letsencrypt.org"', 'The flags are a number from 0 to 255'],
  ['CAA', '0 is-sue "letsencrypt.org"', 'The tag is one word of letters and digits'],
  ['CAA', '0 contactemail "not an address"', 'A contactemail value is one e-mail address'],
  ['CAA', '0 contactphone "555-1234"', 'A contactphone value is a phone number in international form'],
  ['CAA', '0 issuemail "not a domain!"', 'An issuemail value names a certificate authority'],
  ['CAA', '0 issue "not a domain!"', 'names a certificate authority'],
  ['CAA', '0 iodef "security@example.com"', 'mailto: or https://'],
  ['CAA', '0 issue "letsencrypt.org', 'not closed'],
  ['SOA', 'ns1.example.net. hostmaster.example.com. 1 2 3 4', 'seven fields'],
  ['SOA', 'ns1.example.net. hostmaster@example.com 1 2 3 4 5', 'with a dot for the @'],
  ['SOA', 'ns1.example.net. hostmaster.example.com. x 2 3 4 5', 'The serial is a whole number'],
  ['SOA', 'ns1.example.net. hostmaster.example.com. 1 soon 3 4 5', 'The refresh time'],
  ['DS', '12345 13 2', 'Enter four fields'],
  ['DS', `70000 13 2 ${hex64}`, 'The key tag is a number from 0 to 65535'],
  ['DS', `12345 13 2 ${hex64.slice(2)}`, 'SHA-256 digest (type 2) is 64 hexadecimal characters; this one has 62'],
  ['DS', `12345 13 2 ${hex64.slice(1)}`, 'odd number of hexadecimal digits'],
  ['DS', '12345 13 2 XYZ0', 'must be hexadecimal'],
  ['DS', `12345 13 0 ${hex64}`, 'The digest type is 1 (SHA-1), 2 (SHA-256) or 4 (SHA-384)'],
  ['TLSA', `4 1 1 ${hex64}`, 'The usage is 0 to 3'],
  ['TLSA', `3 2 1 ${hex64}`, 'The selector is 0'],
  ['TLSA', `3 1 3 ${hex64}`, 'The matching type is 0'],
  ['TLSA', `3 1 2 ${hex64}`, 'SHA-512 hash (matching type 2) is 128 hexadecimal characters'],
  ['SSHFP', `0 2 ${hex64}`, 'The algorithm is 1 (RSA)'],
  ['SSHFP', `4 3 ${hex64}`, 'The fingerprint type is 1 (SHA-1) or 2 (SHA-256)'],
  ['SSHFP', `4 1 ${hex64}`, 'SHA-1 fingerprint (type 1) is 40 hexadecimal characters'],
  ['SSHFP', '4 2', 'Enter three fields'],
  ['HTTPS', '1', 'Enter a priority and a target'],
  ['HTTPS', 'x .', 'The priority is a number from 0 to 65535'],
  ['HTTPS', '0 . alpn=h2', 'alias mode, which takes no parameters'],
  ['HTTPS', '1 . color=blue', 'Unknown parameter "color"'],
  ['HTTPS', '1 . alpn=h2 alpn=h3', 'appears twice'],
  ['HTTPS', '1 . port=http', 'port is a number from 0 to 65535'],
  ['HTTPS', '1 . ipv4hint=192.0.2.1,300.0.0.1', '"300.0.0.1" is not one'],
  ['HTTPS', '1 . ipv6hint=nope', 'ipv6hint lists IPv6 addresses'],
  ['HTTPS', '1 . no-default-alpn=yes', 'takes no value'],
  ['SVCB', '1 svc.example.com. mandatory=colour', 'mandatory lists other keys'],
  ['SVCB', '1 svc.example.com. dohpath=/dns-query', 'URI template with {?dns}'],
  ['SVCB', '1 https://svc.example.com/ alpn=h2', 'not a web address'],
  ['NAPTR', '100 10 "S" "SIP+D2U" ""', 'Enter six fields'],
  ['NAPTR', '100 x "S" "SIP+D2U" "" _sip._udp.example.com.', 'order and preference are numbers'],
  ['NAPTR', '100 10 "S!" "SIP+D2U" "" _sip._udp.example.com.', 'The flags are letters'],
  ['NAPTR', '100 10 "U" "E2U+sip" "!^.*$!sip:a@b.c!" _sip._udp.example.com.', 'either a regexp or a replacement'],
];

describe('validateRdata', () => {
  it.each(VALID)('accepts %s %j and stores %j', (type, input, stored) => {
    expect(validateRdata(type, input)).toEqual({ ok: true, value: stored });
  });

  it.each(INVALID)('refuses %s %j: "%s"', (type, input, fragment) => {
    const result = validateRdata(type, input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(fragment);
  });

  it('gives every type an example that passes unchanged', () => {
    for (const type of RECORD_TYPES) expect(validateRdata(type, RDATA_EXAMPLES[type]), type).toEqual({ ok: true, value: RDATA_EXAMPLES[type] });
  });

  it('stores a form that validates to itself (idempotent)', () => {
    for (const [type, , stored] of VALID) expect(validateRdata(type, stored), `${type} ${stored}`).toEqual({ ok: true, value: stored });
  });

  it('says what is wrong and gives an example in every message for an empty value', () => {
    for (const type of RECORD_TYPES) {
      const result = validateRdata(type, '');
      expect(result.ok, type).toBe(false);
      if (!result.ok) expect(result.message, type).toMatch(/e\.g\.|such as|example/);
    }
  });
});

describe('TXT strings', () => {
  it('splits raw text into chunks of at most 255 bytes', () => {
    expect(splitTxt('')).toEqual(['']);
    expect(splitTxt('abc')).toEqual(['abc']);
    expect(splitTxt('a'.repeat(510))).toEqual(['a'.repeat(255), 'a'.repeat(255)]);
    expect(splitTxt('a'.repeat(511))).toEqual(['a'.repeat(255), 'a'.repeat(255), 'a']);
  });

  it('never cuts a multi-byte UTF-8 character at the 255-byte boundary', () => {
    // 254 ASCII bytes, then a 2-byte é: it cannot fit whole in the first string.
    const text = `${'a'.repeat(254)}é${'b'.repeat(10)}`;
    const chunks = splitTxt(text);
    expect(chunks).toEqual(['a'.repeat(254), `é${'b'.repeat(10)}`]);
    expect(chunks.join('')).toBe(text);
    // A 4-byte emoji straddling the boundary moves to the next string whole.
    const emoji = `${'a'.repeat(253)}😀z`;
    expect(splitTxt(emoji).map(bytes)).toEqual([253, 5]);
    expect(splitTxt(emoji).join('')).toBe(emoji);
    // 200 × é is 400 bytes: 127 characters (254 bytes) then 73.
    expect(splitTxt('é'.repeat(200)).map(bytes)).toEqual([254, 146]);
  });

  it('quotes and escapes for the wire, and reads it back', () => {
    expect(txtToWire('v=spf1 -all')).toBe('"v=spf1 -all"');
    expect(txtToWire('say "hi" \\o/')).toBe('"say \\"hi\\" \\\\o/"');
    expect(txtToWire('')).toBe('""');
    expect(txtToWire('a'.repeat(256))).toBe(`"${'a'.repeat(255)}" "a"`);
    expect(txtFromWire('"a" "b"')).toBe('ab');
    expect(txtFromWire('"say \\"hi\\" \\\\o/"')).toBe('say "hi" \\o/');
    expect(txtFromWire('"semi\\059colon"')).toBe('semi;colon');
  });

  it.each([
    'plain text',
    'quotes " and \\ backslashes \\" mixed',
    `${'x'.repeat(254)}é${'y'.repeat(600)}`,
    '日本語のテキスト'.repeat(40),
    'line\nbreak and\ttab',
  ])('round-trips %j through txtToWire and txtFromWire', (text) => {
    expect(txtFromWire(txtToWire(text))).toBe(text);
    const stored = validateRdata('TXT', txtToWire(text));
    expect(stored).toEqual({ ok: true, value: txtToWire(text) });
  });

  it('holds up to 65,535 bytes of text in all, in 257 strings', () => {
    const stored = validateRdata('TXT', 'x'.repeat(65535));
    expect(stored.ok).toBe(true);
    if (stored.ok) {
      expect(stored.value.split(' ')).toHaveLength(257);
      expect(txtFromWire(stored.value)).toHaveLength(65535);
    }
  });

  it('stores control characters as \\DDD so the record stays on one line', () => {
    expect(txtToWire('a\nb')).toBe('"a\\010b"');
  });
});

describe('rdataWarnings', () => {
  it('says nothing about the tags of the registry', () => {
    for (const tag of ['issue', 'issuewild', 'iodef', 'issuemail', 'issuevmc', 'contactemail', 'contactphone']) {
      expect(rdataWarnings('CAA', `0 ${tag} "x"`)).toEqual([]);
    }
    expect(rdataWarnings('TXT', '"Policy42"')).toEqual([]);
  });

  it('warns about an unknown tag, more strongly when it is critical', () => {
    expect(rdataWarnings('CAA', '0 Policy42 "x"')[0]).toMatch(/"Policy42" is not a CAA tag .* CAs ignore it/);
    expect(rdataWarnings('CAA', '128 policy42 "x"')[0]).toMatch(/every CA refuses to issue/);
  });
});

describe('SPF in a TXT record (rule DNS_SPF_SYNTAX)', () => {
  it('refuses a malformed SPF record, naming the term and the rule; takes a good one, split or not', () => {
    expect(validateRdata('TXT', 'v=spf1 inclde:example.com -all')).toMatchObject({ ok: false, rule: 'DNS_SPF_SYNTAX', message: expect.stringContaining('"inclde" is not an SPF mechanism') });
    expect(validateRdata('TXT', '"v=spf1 ip4" " -all"')).toMatchObject({ ok: false, rule: 'DNS_SPF_SYNTAX' });
    expect(validateRdata('SPF', 'v=spf1 all:x')).toMatchObject({ ok: false, message: expect.stringContaining('"all" takes no argument') });
    expect(validateRdata('TXT', '"v=spf1 include:_spf.google.com " "~all"')).toMatchObject({ ok: true });
    expect(validateRdata('TXT', 'v=spf1 mx redirect=_spf.example.com')).toMatchObject({ ok: true });
    // Not SPF: any text goes.
    expect(validateRdata('TXT', 'v=spf10 whatever')).toMatchObject({ ok: true });
  });
});
