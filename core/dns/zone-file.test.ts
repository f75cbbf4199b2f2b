import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RDATA_EXAMPLES } from './rdata.ts';
import { parkingRecords } from './parking.ts';
import type { RecordLike } from './types.ts';
import { compareRecords, parseZoneFile, printZoneFile } from './zone-file.ts';
import { RECORD_TYPES } from '../wire/dns.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const row = (r: { name: string; type: string; rdata: string; ttl: number }) => `${r.name} ${r.ttl} ${r.type} ${r.rdata}`;
const skipReasons = (parsed: ReturnType<typeof parseZoneFile>) => parsed.skipped.map((s) => `${s.line}: ${s.reason}`);

describe('parseZoneFile with provider exports', () => {
  it('reads a Cloudflare export: header comments, cf_tags comments, SOA and apex NS skipped', () => {
    const parsed = parseZoneFile(fixture('cloudflare.txt'), { origin: 'example.com' });
    expect(parsed.errors).toEqual([]);
    expect(parsed.records.map(row)).toEqual([
      '@ 1 A 192.0.2.10',
      'shop 300 A 198.51.100.7',
      '@ 1 AAAA 2001:db8::10',
      '@ 1 CAA 0 issue "letsencrypt.org"',
      '@ 1 CAA 0 iodef "mailto:security@example.com"',
      'www 1 CNAME example.com.',
      's1._domainkey 1 CNAME s1.domainkey.u1234567.wl.sendgrid.net.',
      '@ 1 MX 10 mx1.improvmx.com.',
      '@ 1 MX 20 mx2.improvmx.com.',
      '_sip._tls 1 SRV 100 1 443 sipdir.online.lync.com.',
      '@ 1 TXT "v=spf1 include:spf.improvmx.com ~all"',
      '_dmarc 1 TXT "v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com"',
    ]);
    expect(skipReasons(parsed)).toEqual([
      '27: The SOA record belongs to the DNS provider: not imported',
      '30: The name servers of example.com are set by the DNS provider: not imported',
      '31: The name servers of example.com are set by the DNS provider: not imported',
    ]);
    expect(parsed.skipped[1].text).toBe('example.com.\t86400\tIN\tNS\thank.ns.cloudflare.com.');
  });

  it('reads a GoDaddy export: $ORIGIN, relative names, "@" as a target, a multi-line SOA', () => {
    const parsed = parseZoneFile(fixture('godaddy.txt'), { origin: 'example.org.' });
    expect(parsed.errors).toEqual([]);
    expect(parsed.records.map(row)).toEqual([
      '@ 600 A 192.0.2.20',
      'www 3600 CNAME example.org.',
      'email 3600 CNAME email.secureserver.net.',
      '_domainconnect 3600 CNAME _domainconnect.gd.domaincontrol.com.',
      '@ 3600 MX 0 example-org.mail.protection.outlook.com.',
      '@ 3600 TXT "v=spf1 include:secureserver.net -all"',
      '@ 3600 TXT "MS=ms12345678"',
      '_autodiscover._tcp 3600 SRV 0 0 443 autodiscover.outlook.com.',
    ]);
    expect(skipReasons(parsed)).toEqual([
      '32: The SOA record belongs to the DNS provider: not imported',
      '63: The name servers of example.org are set by the DNS provider: not imported',
      '64: The name servers of example.org are set by the DNS provider: not imported',
    ]);
  });

  it('reads a Route 53 export (cli53): a delegation with DS kept, an AWS alias skipped, a long DKIM key split', () => {
    const parsed = parseZoneFile(fixture('route53-cli53.txt'), { origin: 'example.net' });
    expect(parsed.errors).toEqual([]);
    const rows = parsed.records.map(row);
    expect(rows.slice(0, 7)).toEqual([
      '@ 300 MX 1 smtp.google.com.',
      '@ 300 TXT "google-site-verification=rXOxyZounnZasA8Z7oaD3c14JdjS9aKSWvsR1EbUSIQ"',
      '@ 300 TXT "v=spf1 include:_spf.google.com ~all"',
      'api 60 AAAA 2001:db8:85a3::8a2e:370:7334',
      'dev 172800 NS ns-1536.awsdns-00.co.uk.',
      'dev 172800 NS ns-0.awsdns-00.com.',
      'dev 3600 DS 60485 13 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
    ]);
    const dkim = parsed.records[7];
    expect(dkim.name).toBe('google._domainkey');
    expect(dkim.rdata).toMatch(/^"v=DKIM1; k=rsa; p=MIIB[^"]{233}" "[^"]+IDAQAB"$/);
    expect(row(parsed.records[8])).toBe('_443._tcp.www 3600 TLSA 3 1 1 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6');
    expect(parsed.records).toHaveLength(9);
    expect(skipReasons(parsed)).toEqual([
      '2: The SOA record belongs to the DNS provider: not imported',
      '3: The name servers of example.net are set by the DNS provider: not imported',
      '4: The name servers of example.net are set by the DNS provider: not imported',
      "9: AWS is a provider's own record type, not standard DNS: add an A, AAAA or CNAME record instead",
    ]);
  });

  it('reads a hand-kept Namecheap-style file: $TTL, blank owners, parentheses, comments inside them, TTL units', () => {
    const parsed = parseZoneFile(fixture('namecheap.txt'), { origin: 'example.io' });
    expect(parsed.errors).toEqual([]);
    expect(parsed.records.map(row)).toEqual([
      '@ 1800 A 192.0.2.30',
      '@ 1800 MX 10 eforward1.registrar-servers.com.',
      '@ 1800 MX 20 eforward2.registrar-servers.com.',
      '@ 1800 TXT "v=spf1 include:spf.efwd.registrar-servers.com" " ~all"',
      'www 3600 CNAME parkingpage.namecheap.com.',
      'blog 1800 CNAME blog.hosting.example.',
      'mail 300 A 192.0.2.31',
      '_sip._udp 1800 SRV 10 60 5060 sip.example.io.',
      expect.stringMatching(/^default\._domainkey 86400 TXT "v=DKIM1; k=rsa; " "p=MIGfMA0G[A-Za-z0-9+/]+IDAQAB"$/),
      '* 1800 A 192.0.2.30',
    ]);
    expect(skipReasons(parsed)).toEqual([
      '3: The SOA record belongs to the DNS provider: not imported',
      '10: The name servers of example.io are set by the DNS provider: not imported',
      '11: The name servers of example.io are set by the DNS provider: not imported',
      "24: URL301 is a provider's own record type, not standard DNS: add an A, AAAA or CNAME record instead",
      '25: old.example.com is outside example.io: not imported',
    ]);
  });

  it('reports each line it cannot understand with its number and a reason', () => {
    const parsed = parseZoneFile(fixture('broken.txt'), { origin: 'example.com' });
    expect(parsed.records.map(row)).toEqual(['ok 3600 A 192.0.2.1']);
    expect(parsed.errors.map((e) => [e.line, e.message])).toEqual([
      [4, expect.stringContaining('0 to 255')],
      [5, expect.stringContaining('Put a priority before the mail server')],
      [6, expect.stringContaining('quoted string is not closed')],
      [7, expect.stringContaining('Unknown record type "FROB"')],
      [8, expect.stringContaining('has no data')],
      [9, expect.stringContaining('parenthesis "(" is never closed')],
    ]);
    expect(parsed.errors[0].text).toBe('bad     IN  A      300.1.2.3');
  });
});

describe('parseZoneFile details', () => {
  // Snippets without any TTL take the caller's default; files are read without one below, as BIND reads them.
  const parse = (text: string, defaultTtl: number | null = 3600) => parseZoneFile(text, { origin: 'example.com', defaultTtl: defaultTtl ?? undefined });
  const ttls = (text: string) => parse(text, null).records.map((r) => r.ttl);

  it('takes the TTL from the record, then $TTL, then the previous record, then the caller default', () => {
    expect(parse('a A 192.0.2.1', 120).records[0].ttl).toBe(120);
    expect(ttls('$TTL 5m\na A 192.0.2.1\nb 1d A 192.0.2.2\nc A 192.0.2.3')).toEqual([300, 86400, 300]);
    expect(ttls('a 600 A 192.0.2.1\nb A 192.0.2.2')).toEqual([600, 600]);
  });

  it('without $TTL takes the SOA minimum when the SOA has no TTL of its own, as BIND does', () => {
    const soa = '@ IN SOA ns1.example.net. hostmaster.example.com. ( 1 7200 3600 1209600 300 )';
    expect(ttls(`${soa}\na A 192.0.2.1\nb 900 A 192.0.2.2\nc A 192.0.2.3`)).toEqual([300, 900, 300]);
    // An SOA with its own TTL sets the previous-record TTL instead (RFC 1035 semantics).
    expect(ttls(`@ 100 IN SOA ns1.example.net. h.example.com. 1 2 3 4 300\na A 192.0.2.1`)).toEqual([100]);
  });

  it('refuses a record with no TTL from anywhere, at its line, as BIND does', () => {
    const parsed = parse('; no $TTL\na A 192.0.2.1\nb 60 A 192.0.2.2', null);
    expect(parsed.errors.map((e) => [e.line, e.message])).toEqual([[2, expect.stringContaining('This record has no TTL')]]);
    expect(parsed.records.map(row)).toEqual(['b 60 A 192.0.2.2']);
  });

  it('gives a record set the TTL of its first record and flags the others', () => {
    const parsed = parse('$TTL 300\nwww A 192.0.2.1\nwww 600 A 192.0.2.2\nwww TXT "x"');
    expect(parsed.records.map(row)).toEqual(['www 300 A 192.0.2.1', 'www 300 A 192.0.2.2', 'www 300 TXT "x"']);
    expect(parsed.warnings.map((w) => [w.line, w.message])).toEqual([[3, expect.stringContaining('TTL 600 differs from the first A record of this name (line 2, TTL 300)')]]);
  });

  it('reads RFC 3597 generic types, classes and data for the types it knows', () => {
    const parsed = parse(
      [
        'w CLASS1 TYPE1 192.0.2.1',
        'x A \\# 4 C0000201',
        '*.shop TYPE65 \\# 3 000100',
        'y TYPE257 \\# 22 00 05 6973737565 6C657473656E63727970742E6F7267',
        'z MX \\# 3 000A00',
        'bad A \\# 5 C000020101',
      ].join('\n'),
    );
    expect(parsed.records.map(row)).toEqual(['w 3600 A 192.0.2.1', 'x 3600 A 192.0.2.1', '*.shop 3600 HTTPS 1 .', 'y 3600 CAA 0 issue "letsencrypt.org"', 'z 3600 MX 10 .']);
    expect(parsed.errors.map((e) => [e.line, e.message])).toEqual([[6, 'The A data has 1 bytes more than its fields hold']]);
  });

  it('imports wildcards and warns about a CAA tag outside the registry', () => {
    const parsed = parse('* A 192.0.2.1\n*.shop MX 10 mail.example.com.\n@ CAA 0 policy "x"');
    expect(parsed.records.map(row)).toEqual(['* 3600 A 192.0.2.1', '*.shop 3600 MX 10 mail.example.com.', '@ 3600 CAA 0 policy "x"']);
    expect(parsed.warnings.map((w) => w.line)).toEqual([3]);
  });

  it('accepts the class before or after the TTL, or none', () => {
    const text = 'a IN 60 A 192.0.2.1\nb 60 IN A 192.0.2.2\nc A 192.0.2.3\nd in a 192.0.2.4';
    expect(parse(text).records.map(row)).toEqual(['a 60 A 192.0.2.1', 'b 60 A 192.0.2.2', 'c 60 A 192.0.2.3', 'd 60 A 192.0.2.4']);
  });

  it('follows $ORIGIN for owners and targets', () => {
    const parsed = parse('$ORIGIN eu.example.com.\nwww CNAME web\n@ MX 10 mail\n$ORIGIN example.com.\napi CNAME www.eu');
    expect(parsed.records.map(row)).toEqual([
      'www.eu 3600 CNAME web.eu.example.com.',
      'eu 3600 MX 10 mail.eu.example.com.',
      'api 3600 CNAME www.eu.example.com.',
    ]);
  });

  it('keeps semicolons and parentheses inside quotes, and escaped quotes', () => {
    const parsed = parse('_dmarc TXT "v=DMARC1; p=none" ; comment\nq TXT "say \\"hi\\" (twice)"');
    expect(parsed.records.map((r) => r.rdata)).toEqual(['"v=DMARC1; p=none"', '"say \\"hi\\" (twice)"']);
  });

  it('reads unquoted TXT words as separate strings, as BIND does', () => {
    expect(parse('a TXT hello world').records[0].rdata).toBe('"hello" "world"');
  });

  it('reads Windows line endings and a byte-order mark', () => {
    expect(parse('\uFEFFa A 192.0.2.1\r\nb A 192.0.2.2\r\n').records.map(row)).toEqual(['a 3600 A 192.0.2.1', 'b 3600 A 192.0.2.2']);
  });

  it('skips other classes and unsupported types, and reports a blank owner with nothing before it', () => {
    const parsed = parse('  A 192.0.2.1\na CH TXT "x"\nb LOC 52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m\nc TYPE65534 \\# 0');
    expect(parsed.errors.map((e) => e.line)).toEqual([1]);
    expect(parsed.skipped.map((s) => s.reason)).toEqual([
      'Class CH records are not DNS records of the internet (class IN): not imported',
      'LOC records are not supported here',
      'TYPE65534 records are not supported here',
    ]);
  });

  it('reports a bad owner name and an unknown directive', () => {
    const parsed = parse('bad!name A 192.0.2.1\n$FOO bar');
    expect(parsed.errors.map((e) => [e.line, e.message])).toEqual([
      [1, expect.stringContaining('characters a name cannot hold')],
      [2, expect.stringContaining('Unknown directive $FOO')],
    ]);
  });
});

describe('printZoneFile', () => {
  const records: RecordLike[] = [
    { name: 'www', type: 'CNAME', rdata: 'example.com.', ttl: 3600 },
    { name: '@', type: 'TXT', rdata: '"v=spf1 -all"', ttl: 300 },
    { name: '@', type: 'A', rdata: '192.0.2.1', ttl: 60 },
    { name: '_dmarc', type: 'TXT', rdata: '"v=DMARC1; p=none; rua=mailto:d@example.com"', ttl: 3600 },
    { name: 'q', type: 'TXT', rdata: '"say \\"hi\\" ; (x)" "two\\\\"', ttl: 3600 },
    ...RECORD_TYPES.filter((t) => t !== 'SOA' && t !== 'NS').map((type) => ({ name: `t-${type.toLowerCase()}`, type, rdata: RDATA_EXAMPLES[type], ttl: 1800 })),
    { name: 'sub', type: 'NS', rdata: RDATA_EXAMPLES.NS, ttl: 86400 },
  ];

  it('writes $ORIGIN, $TTL, a dated header and aligned columns with absolute owners', () => {
    const text = printZoneFile('example.com', records.slice(0, 3), { now: new Date('2026-01-02T03:04:05Z') });
    expect(text).toBe(
      [
        '; Zone file for example.com',
        '; Exported 2026-01-02T03:04:05.000Z: 3 records',
        '; Times to live (TTL) are in seconds. The SOA and NS records of the zone belong to the DNS provider.',
        '$ORIGIN example.com.',
        '$TTL 3600',
        '',
        'example.com.        60  IN  A      192.0.2.1',
        'example.com.       300  IN  TXT    "v=spf1 -all"',
        'www.example.com.  3600  IN  CNAME  example.com.',
        '',
      ].join('\n'),
    );
  });

  it('round-trips: parsing the printed file gives the same records', () => {
    const parsed = parseZoneFile(printZoneFile('example.com', records), { origin: 'example.com' });
    expect(parsed.errors).toEqual([]);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.records).toEqual([...records].sort(compareRecords));
  });

  it('round-trips what it parsed from a provider export', () => {
    const first = parseZoneFile(fixture('namecheap.txt'), { origin: 'example.io' });
    const again = parseZoneFile(printZoneFile('example.io', first.records), { origin: 'example.io' });
    expect(again.records).toEqual([...first.records].sort(compareRecords));
  });

  it('leaves parking records out unless asked, and marks them when included', () => {
    const withParking = [...records.slice(0, 1), ...parkingRecords('example.com')];
    const left = printZoneFile('example.com', withParking);
    expect(left).not.toContain('34.123.0.161');
    expect(left).toContain(': 1 record (4 parking records left out)');
    const included = printZoneFile('example.com', withParking, { includeManaged: true });
    expect(included).toContain('34.123.0.161 ; managed by parking');
    expect(parseZoneFile(included, { origin: 'example.com' }).records.map((r) => r.rdata)).toContain('34.123.0.161');
  });
});

describe('ALIAS in zone files', () => {
  it('reads an ALIAS at the apex and a relative one, and writes them back', () => {
    const parsed = parseZoneFile('$ORIGIN example.com.\n$TTL 300\n@ IN ALIAS app.vercel.example.\nshop ALIAS shops\n', { origin: 'example.com' });
    expect(parsed.errors).toEqual([]);
    expect(parsed.records.map(row)).toEqual(['@ 300 ALIAS app.vercel.example.', 'shop 300 ALIAS shops.example.com.']);
    const printed = printZoneFile('example.com', parsed.records);
    expect(parseZoneFile(printed, { origin: 'example.com' }).records.map(row)).toEqual(parsed.records.map(row));
  });
});
