import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeResponse, encodeQuery } from '#core/dns/message.ts';
import { checkSignedAnswer } from '#core/dns/signed-answer.ts';
import type { DnssecState } from '#core/wire/dnssec.ts';
import { bindToolsMissing, delv, dig, verifySignedZone } from '../../test/support/bind.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { renewDueSignatures } from '../zones/signature-renewal.ts';

if (bindToolsMissing()) throw new Error(bindToolsMissing() as string);

const [OWNER_KEY, OTHER_KEY] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let port: number;
let count = 0;

beforeAll(async () => {
  service = await startTestService({ DNS_PORT: '0' });
  client = testClient(service);
  port = service.dns?.port as number;
});
afterAll(() => service.destroy());

const RECORDS = [
  { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 },
  { name: '@', type: 'MX', rdata: '10 Mail.{zone}.', ttl: 3600 },
  { name: 'mail', type: 'A', rdata: '192.0.2.25', ttl: 3600 },
  { name: '*.shop', type: 'TXT', rdata: '"any shop"', ttl: 120 },
  { name: 'x.deep', type: 'TXT', rdata: '"below an empty non-terminal"', ttl: 120 },
  { name: 'lab', type: 'NS', rdata: 'ns1.lab.{zone}.', ttl: 86400 },
  { name: 'ns1.lab', type: 'A', rdata: '192.0.2.53', ttl: 86400 },
  { name: 'alias', type: 'CNAME', rdata: 'www.{zone}.', ttl: 60 },
  { name: '_sip._tcp', type: 'SRV', rdata: '10 5 5060 mail.{zone}.', ttl: 300 },
];

/** A zone with records, parked (parking's apex records signed too), and signed through toggleDnssec. */
async function signedZone(): Promise<{ zone: string; state: DnssecState }> {
  const zone = `signed${++count}.com`;
  await service.services.ownership.mint({ name: zone, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  const records = RECORDS.map((r) => ({ ...r, rdata: r.rdata.replaceAll('{zone}', zone) }));
  expect((await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: zone, records })).status).toBe(200);
  const toggled = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: true });
  expect(toggled.status, JSON.stringify(toggled.body)).toBe(200);
  return { zone, state: toggled.body };
}

const anchor = (state: DnssecState) => state.ds[0];
const validated = (text: string) => /; fully validated/.test(text) && !/resolution failed/.test(text);
const validatedNegative = (text: string) => /; negative response, fully validated/.test(text);

async function transfer(zone: string): Promise<string> {
  const text = await dig(port, ['+nocookie', zone, 'AXFR']);
  return `${text
    .split('\n')
    .filter((l) => l && !l.startsWith(';'))
    .join('\n')}\n`;
}

describe('DNSSEC: a zone signed with one switch', () => {
  let zone: string;
  let state: DnssecState;
  beforeAll(async () => {
    ({ zone, state } = await signedZone());
  });

  it('answers the DS in the form a registrar asks for, and the same state to anyone who asks', async () => {
    expect(state).toMatchObject({ normalizedDomainName: zone, enabled: true, algorithm: 13, ds: [{ algorithm: 13, digestType: 2 }] });
    expect(state.dsRecords).toEqual([`${zone}. 3600 IN DS ${state.keyTag} 13 2 ${state.ds[0].digest}`]);
    expect(state.ds[0].digest).toMatch(/^[0-9A-F]{64}$/);
    expect(state.dnskey).toMatch(new RegExp(`^${zone}\\. 3600 IN DNSKEY 257 3 13 [A-Za-z0-9+/]{86}==$`));
    const read = await client.call('getDnssec', { query: { normalizedDomainName: zone } });
    expect(read.body).toEqual(state);
    // The DNSKEY served is the key the DS names: dig computes the same DS from it.
    const dnskey = (await dig(port, ['+short', '+nosplit', zone, 'DNSKEY'])).trim();
    expect(dnskey.replace(/\s+/g, ' ')).toBe(state.dnskey?.split(' IN DNSKEY ')[1]);
    expect((await dig(port, ['+short', '+nosplit', zone, 'CDS'])).trim().replace(/\s+/g, ' ')).toBe(`${state.keyTag} 13 2 ${state.ds[0].digest}`);
  });

  it('delv validates a positive answer, an NXDOMAIN, a NODATA and a wildcard expansion, with the DS as its only anchor', async () => {
    const ds = anchor(state);
    const positive = await delv(port, zone, ds, `www.${zone}`, 'A');
    expect(validated(positive), positive).toBe(true);
    expect(positive).toContain('192.0.2.1');
    const apex = await delv(port, zone, ds, zone, 'A');
    expect(validated(apex), apex).toBe(true);
    expect(apex).toContain('34.123.0.161');
    expect(validated(await delv(port, zone, ds, zone, 'MX'))).toBe(true);
    expect(validated(await delv(port, zone, ds, `_sip._tcp.${zone}`, 'SRV'))).toBe(true);
    expect(validated(await delv(port, zone, ds, `alias.${zone}`, 'A'))).toBe(true);
    const nx = await delv(port, zone, ds, `nope.${zone}`, 'A');
    expect(validatedNegative(nx), nx).toBe(true);
    expect(nx).toMatch(/NXDOMAIN/);
    const nodata = await delv(port, zone, ds, `mail.${zone}`, 'TXT');
    expect(validatedNegative(nodata), nodata).toBe(true);
    const emptyNonTerminal = await delv(port, zone, ds, `deep.${zone}`, 'A');
    expect(validatedNegative(emptyNonTerminal), emptyNonTerminal).toBe(true);
    const wildcard = await delv(port, zone, ds, `store7.shop.${zone}`, 'TXT');
    expect(validated(wildcard), wildcard).toBe(true);
    expect(wildcard).toContain('"any shop"');
    const wildcardNodata = await delv(port, zone, ds, `store7.shop.${zone}`, 'A');
    expect(validatedNegative(wildcardNodata), wildcardNodata).toBe(true);
    // The delegation has no DS: proven insecure, not bogus.
    const insecure = await delv(port, zone, ds, `lab.${zone}`, 'DS');
    expect(validatedNegative(insecure), insecure).toBe(true);
  });

  it('re-signs a signed change at once: delv validates the new answer, the new NXDOMAIN and the new serial', async () => {
    const ds = anchor(state);
    const created = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: zone, type: 'TXT', name: 'nope', rdata: 'now here', ttl: 300 });
    expect(created.status).toBe(200);
    const fresh = await delv(port, zone, ds, `nope.${zone}`, 'TXT');
    expect(validated(fresh), fresh).toBe(true);
    expect(fresh).toContain('"now here"');
    expect(validated(await delv(port, zone, ds, zone, 'SOA'))).toBe(true);
    expect(validatedNegative(await delv(port, zone, ds, `nope2.${zone}`, 'A'))).toBe(true);
    // Unparked: parking's apex records go, and the NSEC at the apex says so.
    expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
    const gone = await delv(port, zone, ds, zone, 'A');
    expect(validatedNegative(gone), gone).toBe(true);
  });

  it('a signed delegation: its DS validates, and a referral carries the DS and its signature', async () => {
    const digest = 'A'.repeat(64);
    const records = [
      { name: 'sec', type: 'NS', rdata: 'ns.example.net.', ttl: 3600 },
      { name: 'sec', type: 'DS', rdata: `12345 13 2 ${digest}`, ttl: 3600 },
    ];
    expect((await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: zone, records })).status).toBe(200);
    const ds = await delv(port, zone, anchor(state), `sec.${zone}`, 'DS');
    expect(validated(ds), ds).toBe(true);
    const referral = await dig(port, ['+norec', '+nocookie', '+dnssec', `host.sec.${zone}`, 'A']);
    expect(referral).toMatch(new RegExp(`sec\\.${zone.replace('.', '\\.')}\\.\\s+3600\\s+IN\\s+DS\\s+12345 13 2`));
    expect(referral).toMatch(/RRSIG\s+DS 13 3 3600/);
    expect(referral).not.toMatch(/RRSIG\s+NS/);
  });

  it('transfers the whole signed zone, which dnssec-verify accepts', async () => {
    const text = await transfer(zone);
    expect(text).toMatch(/\sRRSIG\s/);
    expect(text).toMatch(/\sNSEC\s/);
    const verdict = verifySignedZone(zone, text);
    expect(verdict.ok, verdict.log).toBe(true);
    expect(verdict.log).toMatch(/Zone fully signed:\s+Algorithm: ECDSAP256SHA256: KSKs:\s+1 active/);
    // A broken chain is refused: the check is not a formality.
    const broken = text.replace(/^(mail\.\S+\s+\d+\s+IN\s+A\s+)192\.0\.2\.25$/m, '$1192.0.2.26');
    expect(broken).not.toBe(text);
    expect(verifySignedZone(zone, broken).ok).toBe(false);
  });

  it('answers without DNSSEC records to a client that did not ask for them (no DO bit)', async () => {
    const plain = await dig(port, ['+norec', '+nocookie', `www.${zone}`, 'A']);
    expect(plain).not.toMatch(/RRSIG/);
    const withDo = await dig(port, ['+norec', '+nocookie', '+dnssec', `www.${zone}`, 'A']);
    expect(withDo).toMatch(/RRSIG\s+A 13 3 300/);
    expect(withDo).toMatch(/flags:[^;]*do;|; EDNS: version: 0, flags: do;/);
  });

  it('never answers the private key: not in the state, not in a transfer', async () => {
    const [row] = await service.services.db.query<{ private_key: string }>('SELECT private_key FROM dnssec_keys WHERE zone_name = $1', [zone]);
    const secret = row.private_key;
    expect(secret.length).toBeGreaterThan(40);
    const read = await client.call('getDnssec', { query: { normalizedDomainName: zone } });
    expect(JSON.stringify(read.body)).not.toContain(secret.slice(-40));
    expect(await transfer(zone)).not.toContain(secret.slice(-40));
  });
});

/** What the dashboard's "Live?" check does: DoH with the DO bit, for the record and the zone's DNSKEY, checked with WebCrypto. */
async function liveSigned(zone: string, fqdn: string, type: 'A' | 'TXT' | 'MX', now = new Date()) {
  const ask = async (name: string, t: Parameters<typeof encodeQuery>[1]) => {
    const dns = Buffer.from(encodeQuery(name, t, 0, { dnssecOk: true })).toString('base64url');
    return decodeResponse(new Uint8Array(await (await fetch(`${service.origin}/dns-query?dns=${dns}`)).arrayBuffer()));
  };
  return checkSignedAnswer({ zone, fqdn, type, answer: await ask(fqdn, type), dnskey: await ask(zone, 'DNSKEY'), now });
}

describe('the dashboard\'s signed check (DoH with DO, RRSIG checked with WebCrypto)', () => {
  it('says signed for answers of a signed zone, wildcards and mixed-case names included, and why not for an unsigned one', async () => {
    const { zone, state } = await signedZone();
    expect(await liveSigned(zone, `www.${zone}`, 'A')).toMatchObject({ signed: true, keyTag: state.keyTag });
    expect(await liveSigned(zone, zone, 'MX')).toMatchObject({ signed: true });
    expect(await liveSigned(zone, `store1.shop.${zone}`, 'TXT')).toMatchObject({ signed: true });
    expect((await client.signed(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: false })).status).toBe(200);
    expect(await liveSigned(zone, `www.${zone}`, 'A')).toEqual({ signed: false, reason: 'the answer carries no signature (the zone is not signed)' });
  });
});

describe('DNSSEC: turning it off, and who may', () => {
  it('refuses another wallet, and answers 404 for a domain nobody owns', async () => {
    const { zone } = await signedZone();
    const other = await client.signed(OTHER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: false });
    expect(other.status).toBe(403);
    expect((await client.call('getDnssec', { query: { normalizedDomainName: zone } })).body.enabled).toBe(true);
    expect((await client.call('getDnssec', { query: { normalizedDomainName: 'nobody-owns-this.com' } })).status).toBe(404);
  });

  it('a zone turned off answers unsigned, and its DNSKEY is gone', async () => {
    const { zone } = await signedZone();
    const off = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ normalizedDomainName: zone, enabled: false, algorithm: 13, denial: 'nsec', nsec3OptOut: false, keyTag: null, dnskey: null, ds: [], dsRecords: [], rollover: null });
    expect((await dig(port, ['+short', '+nosplit', zone, 'DNSKEY'])).trim()).toBe('');
    const answer = await dig(port, ['+norec', '+nocookie', '+dnssec', `www.${zone}`, 'A']);
    expect(answer).toContain('192.0.2.1');
    expect(answer).not.toMatch(/RRSIG/);
    expect(await transfer(zone)).not.toMatch(/\s(RRSIG|NSEC|DNSKEY|CDS)\s/);
    // On again: a new key, so a new DS.
    const on = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: true });
    expect(validated(await delv(port, zone, on.body.ds[0], `www.${zone}`, 'A'))).toBe(true);
  });

  it('takes an API key; a SIWE session alone, a bad payload or a missing name is a 4xx', async () => {
    const { zone } = await signedZone();
    const token = await client.signIn(OWNER_KEY);
    const siwe = await client.call('toggleDnssec', { body: { normalizedDomainName: zone, enabled: false }, headers: client.withToken(token) });
    expect(siwe.status).toBe(401);
    const key = (await client.call('createApiKey', { body: { label: 'dnssec' }, headers: client.withToken(token) })).body.key;
    const off = await client.call('toggleDnssec', { body: { normalizedDomainName: zone, enabled: false }, headers: client.withApiKey(key) });
    expect(off).toMatchObject({ status: 200, body: { enabled: false } });
    const bad = await client.call('toggleDnssec', { body: { normalizedDomainName: zone, enabled: 'yes' }, headers: client.withApiKey(key) });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fieldErrors.enabled).toBeDefined();
    expect((await client.call('getDnssec', { query: {} })).status).toBe(400);
  });
});

describe('DNSSEC: signatures renewed before they run out', () => {
  // Last in this file: a renewal dated days ahead moves every signed zone's epoch there.
  it('a zone unchanged until 3 days before its signatures run out is renewed once: a new serial, signatures from then on, answered over UDP', async () => {
    const { zone } = await signedZone();
    // From the UDP answer as dig prints it (no cookie: the same query bytes each time, so the packet cache answers).
    const expiration = async () => (await dig(port, ['+short', '+dnssec', '+notcp', '+nocookie', `www.${zone}`, 'A'])).split('\n').find((l) => l.startsWith('A 13 '))?.split(' ')[4];
    const serial = async () => Number((await dig(port, ['+short', '+notcp', '+nocookie', zone, 'SOA'])).split(' ')[2]);
    const digDate = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\D/g, '').slice(0, 14);
    const first = await expiration();
    const firstSerial = await serial();
    expect(first).toMatch(/^\d{14}$/);
    expect(await expiration()).toBe(first);

    let clock = Date.now() + 10 * 86400_000;
    expect(await renewDueSignatures(service.services, new Date(clock))).not.toContain(zone);
    clock += 2 * 86400_000;
    const renewed = await Promise.all([renewDueSignatures(service.services, new Date(clock)), renewDueSignatures(service.services, new Date(clock))]);
    expect(renewed.flat().filter((z) => z === zone)).toEqual([zone]);

    await expect.poll(serial).toBe(firstSerial + 1);
    expect(await expiration()).toBe(digDate(Math.floor(clock / 1000) + 14 * 86400));
    // The renewed answer checks out at the renewal's time (the real clock is 12 days before its inception).
    expect(await liveSigned(zone, `www.${zone}`, 'A', new Date(clock + 3600_000))).toMatchObject({ signed: true });
  });
});
