import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { bindToolsMissing, compileZone } from '../../test/support/bind.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { fullName } from '#core/dns/names.ts';
import { validateRdata } from '#core/dns/rdata.ts';
import type { RecordLike } from '#core/dns/types.ts';
import { rdataToWire, TYPE_NUMBERS } from '#core/dns/wire-rdata.ts';
import { compareRecords, parseZoneFile, printZoneFile } from '#core/dns/zone-file.ts';
import { checkZoneChange } from '#core/dns/zone-rules.ts';

if (bindToolsMissing()) throw new Error(bindToolsMissing() as string);

const ZONE = 'gen.example';
/** Sized so the three properties together take about a minute on 2 cores. */
// Sized to fit npm test's 25 minutes; DNS_PROPERTY_RUNS=1000 for a longer look.
const RUNS = Number(process.env.DNS_PROPERTY_RUNS ?? 200);
const compared = { zones: 0, records: 0, generic: 0, broken: 0 };

const label = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);
const name = fc.oneof(
  { weight: 1, arbitrary: fc.constant('@') },
  { weight: 4, arbitrary: label },
  { weight: 2, arbitrary: fc.tuple(label, label).map(([a, b]) => `${a}.${b}`) },
  { weight: 1, arbitrary: fc.constant('*') },
  { weight: 1, arbitrary: label.map((l) => `*.${l}`) },
);
const outside = label.map((l) => `${l}.example.net.`);
const u16 = fc.integer({ min: 0, max: 65535 });
const hex = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((a) => Array.from(a, (b) => b.toString(16).padStart(2, '0')).join(''));
const txtString = fc.string({ unit: 'binary', maxLength: 120 });

const rdataFor: Partial<Record<RecordType, fc.Arbitrary<string>>> = {
  A: fc.ipV4(),
  AAAA: fc.ipV6(),
  CNAME: fc.oneof(outside, label.map((l) => `${l}.${ZONE}.`)),
  PTR: outside,
  MX: fc.tuple(u16, fc.oneof(outside, fc.constant('.'))).map(([p, h]) => `${p} ${h}`),
  TXT: fc.array(txtString, { minLength: 1, maxLength: 3 }).map((strings) => strings.map((s) => JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, (_, h: string) => `\\${String(parseInt(h, 16)).padStart(3, '0')}`)).join(' ')),
  SPF: fc.constantFrom('"v=spf1 -all"', '"v=spf1 include:_spf.example.net ~all"'),
  SRV: fc.tuple(u16, u16, u16, outside).map((parts) => parts.join(' ')),
  CAA: fc.oneof(
    fc.tuple(fc.constantFrom(0, 128), fc.constantFrom('issue', 'issuewild', 'issuemail', 'issuevmc'), fc.constantFrom('letsencrypt.org', 'pki.goog; validationmethods=dns-01', ';')).map(([f, t, v]) => `${f} ${t} "${v}"`),
    fc.constantFrom('0 iodef "mailto:sec@example.net"', '0 contactemail "sec@example.net"', '0 contactphone "+1 555 0100"', '0 Policy7 "any text"'),
  ),
  TLSA: fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 1 }), hex(32)).map(([u, s, h]) => `${u} ${s} 1 ${h}`),
  SSHFP: fc.tuple(fc.constantFrom(1, 3, 4), hex(32)).map(([a, h]) => `${a} 2 ${h}`),
  HTTPS: fc.oneof(
    outside.map((t) => `0 ${t}`),
    fc.tuple(fc.integer({ min: 1, max: 9 }), fc.constantFrom('.', 'svc.example.net.'), fc.subarray(['alpn=h2,h3', 'port=8443', 'ipv4hint=192.0.2.1,192.0.2.2', 'ipv6hint=2001:db8::1', 'no-default-alpn'])).map(
      ([p, t, params]) => [p, t, ...(params.includes('no-default-alpn') && !params.some((x) => x.startsWith('alpn')) ? params.filter((x) => x !== 'no-default-alpn') : params)].join(' '),
    ),
  ),
  NAPTR: fc.tuple(u16, u16, fc.constantFrom('S', 'A', 'U', ''), fc.constantFrom('SIP+D2U', 'E2U+sip')).map(([o, p, f, s]) => `${o} ${p} "${f}" "${s}" "" _sip._udp.example.net.`),
};
rdataFor.SVCB = rdataFor.HTTPS;

const plainRecord = fc
  .tuple(name, fc.constantFrom(...(Object.keys(rdataFor) as RecordType[])), fc.integer({ min: 0, max: 2147483647 }))
  .chain(([n, type, ttl]) => (rdataFor[type] as fc.Arbitrary<string>).map((rdata) => ({ name: n, type, rdata, ttl })));
/** A delegation with its DS and, when its name server sits below it, the glue it needs. */
const delegation = fc.tuple(label, fc.boolean(), fc.ipV4(), hex(32), fc.integer({ min: 60, max: 86400 })).map(([sub, glued, ip, digest, ttl]): RecordLike[] => [
  { name: sub, type: 'NS', rdata: glued ? `ns1.${sub}.${ZONE}.` : 'ns1.example.net.', ttl },
  { name: sub, type: 'DS', rdata: `12345 13 2 ${digest}`, ttl },
  ...(glued ? [{ name: `ns1.${sub}`, type: 'A' as const, rdata: ip, ttl }] : []),
]);

/** Keeps the candidates that pass validateRdata and the zone rules, in order; a set takes its first TTL. */
function buildZone(candidates: RecordLike[]): RecordLike[] {
  const zone: RecordLike[] = [];
  const setTtl = new Map<string, number>();
  for (const candidate of candidates) {
    const stored = validateRdata(candidate.type, candidate.rdata);
    if (!stored.ok) continue;
    const key = `${candidate.name} ${candidate.type}`;
    const record = { ...candidate, rdata: stored.value, ttl: setTtl.get(key) ?? candidate.ttl };
    const violations = checkZoneChange({ zoneName: ZONE, existing: zone, change: { creates: [record], updates: [], deletes: [] }, parked: false });
    if (violations.length > 0) continue;
    setTtl.set(key, record.ttl);
    zone.push(record);
  }
  return zone;
}

const zoneArbitrary = fc
  .tuple(fc.array(delegation, { maxLength: 2 }), fc.array(plainRecord, { minLength: 1, maxLength: 25 }))
  .map(([delegations, plain]) => buildZone([...delegations.flat(), ...plain]))
  .filter((zone) => zone.length > 0);

/** What the export lacks for BIND to load it: the provider's SOA and apex NS (the export says so). */
const PROVIDER_LINES = `@ 3600 IN SOA ns1.example.net. hostmaster.example.net. 1 7200 3600 1209600 300\n@ 3600 IN NS ns1.example.net.\n`;

const rows = (records: RecordLike[]) => [...records].sort(compareRecords).map((r) => `${r.name} ${r.ttl} ${r.type} ${r.rdata}`);

function readBack(text: string): RecordLike[] {
  const bind = compileZone(ZONE, text);
  if (!bind.ok) throw new Error(`BIND refused a file the export wrote:\n${bind.log}\n${text}`);
  const parsed = parseZoneFile(bind.text, { origin: ZONE });
  expect(parsed.errors).toEqual([]);
  return parsed.records;
}

const hexOf = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

describe('generated zones against BIND 9 (named-compilezone)', () => {
  afterAll(() => {
    console.log(
      `BIND property runs: ${compared.zones} exported zones (${compared.records} records), ${compared.generic} zones in RFC 3597 generic syntax, ${compared.broken} broken files compared`,
    );
  });

  it('an exported zone loads in BIND and reads back as the same record set', () => {
    fc.assert(
      fc.property(zoneArbitrary, (zone) => {
        const text = printZoneFile(ZONE, zone) + PROVIDER_LINES;
        expect(rows(readBack(text))).toEqual(rows(zone));
        expect(rows(parseZoneFile(text, { origin: ZONE }).records)).toEqual(rows(zone));
        compared.zones += 1;
        compared.records += zone.length;
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('the same records written as RFC 3597 generic data (TYPEnn \\# …) read back alike: the wire codec agrees with BIND', () => {
    fc.assert(
      fc.property(zoneArbitrary, (zone) => {
        const lines = zone.map((r) => {
          const wire = rdataToWire(r.type, r.rdata);
          return `${fullName(r.name, ZONE)}. ${r.ttl} CLASS1 TYPE${TYPE_NUMBERS[r.type]} \\# ${wire.length} ${hexOf(wire)}`;
        });
        const text = `${lines.join('\n')}\n${PROVIDER_LINES.replaceAll('@', `${ZONE}.`)}`;
        expect(rows(readBack(text))).toEqual(rows(zone));
        expect(rows(parseZoneFile(text, { origin: ZONE }).records)).toEqual(rows(zone));
        compared.generic += 1;
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  }, 120_000);

  const BREAKAGES = [
    'bad IN A 300.1.2.3',
    'bad IN AAAA 192.0.2.1',
    'bad IN MX mail.example.net.',
    'bad IN TXT "never closed',
    'bad IN FROB 1 2 3',
    'bad IN CAA 0 is-sue "x"',
    'bad IN A \\# 5 C000020101',
    'bad IN SRV 1 2 mail.example.net.',
    'a.*.b IN A 192.0.2.1',
    'bad IN CNAME',
  ];

  it('a file with a broken line is refused by BIND and by the import, at the same line', () => {
    fc.assert(
      fc.property(zoneArbitrary, fc.constantFrom(...BREAKAGES), fc.nat(), (zone, broken, at) => {
        const lines = (printZoneFile(ZONE, zone) + PROVIDER_LINES).split('\n');
        // Records start after the header; the broken line replaces one of them or goes after the last.
        const first = lines.findIndex((l) => l.startsWith('$TTL')) + 2;
        const index = first + (at % (lines.length - first));
        lines.splice(index, 0, broken);
        const text = lines.join('\n');
        const bind = compileZone(ZONE, text);
        expect(bind.ok).toBe(false);
        const ours = parseZoneFile(text, { origin: ZONE });
        expect(ours.errors[0]?.line).toBe(bind.ok ? undefined : bind.line);
        expect(ours.errors[0].line).toBe(index + 1);
        compared.broken += 1;
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  }, 120_000);
});
