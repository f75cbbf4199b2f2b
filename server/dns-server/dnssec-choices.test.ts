import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeResponse, encodeQuery } from '#core/dns/message.ts';
import { checkSignedAnswer } from '#core/dns/signed-answer.ts';
import type { DnssecState } from '#core/wire/dnssec.ts';
import { bindToolsMissing, delv, dig, verifySignedZone } from '../../test/support/bind.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

if (bindToolsMissing()) throw new Error(bindToolsMissing() as string);

/** DNSSEC choices per zone (issue 49 item 5): NSEC3 with RFC 9276's parameters, opt-out, Ed25519. */

const [OWNER_KEY] = TEST_KEYS;
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
  { name: 'mail', type: 'A', rdata: '192.0.2.25', ttl: 3600 },
  { name: '*.shop', type: 'TXT', rdata: '"any shop"', ttl: 120 },
  { name: 'x.deep', type: 'TXT', rdata: '"below an empty non-terminal"', ttl: 120 },
  { name: 'lab', type: 'NS', rdata: 'ns1.lab.{zone}.', ttl: 86400 },
  { name: 'ns1.lab', type: 'A', rdata: '192.0.2.53', ttl: 86400 },
  { name: 'sub.unsigned', type: 'NS', rdata: 'ns.example.net.', ttl: 86400 },
  { name: 'alias', type: 'CNAME', rdata: 'www.{zone}.', ttl: 60 },
];

async function signedZone(choices: Record<string, unknown>): Promise<{ zone: string; state: DnssecState }> {
  const zone = `choice${++count}.com`;
  await service.services.ownership.mint({ name: zone, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  const records = RECORDS.map((r) => ({ ...r, rdata: r.rdata.replaceAll('{zone}', zone) }));
  expect((await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: zone, records })).status).toBe(200);
  const toggled = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: true, ...choices });
  expect(toggled.status, JSON.stringify(toggled.body)).toBe(200);
  return { zone, state: toggled.body };
}

const validated = (text: string) => /; fully validated/.test(text) && !/resolution failed/.test(text);
const validatedNegative = (text: string) => /; negative response, fully validated/.test(text);

async function transfer(zone: string): Promise<string> {
  const text = await dig(port, ['+nocookie', zone, 'AXFR']);
  return `${text
    .split('\n')
    .filter((l) => l && !l.startsWith(';'))
    .join('\n')}\n`;
}

/** delv validates every kind of answer the zone gives, positive and negative, with the DS as its only anchor. */
async function expectValidates(zone: string, ds: DnssecState['ds'][number]) {
  const ask = (question: string) => delv(port, zone, ds, ...(question.split(' ') as [string, string]));
  const positive = [`www.${zone} A`, `${zone} SOA`, `alias.${zone} A`, `store7.shop.${zone} TXT`];
  const negative = [`nope.${zone} A`, `a.b.nope.${zone} A`, `mail.${zone} TXT`, `deep.${zone} A`, `store7.shop.${zone} A`, `lab.${zone} DS`, `sub.unsigned.${zone} DS`, `unsigned.${zone} A`];
  const answers = await Promise.all([...positive, ...negative].map(ask));
  positive.forEach((question, i) => expect(validated(answers[i]), `${question}\n${answers[i]}`).toBe(true));
  negative.forEach((question, i) => expect(validatedNegative(answers[positive.length + i]), `${question}\n${answers[positive.length + i]}`).toBe(true));
  const nx = await delv(port, zone, ds, `nope.${zone}`, 'A');
  expect(nx).toMatch(/NXDOMAIN/);
}

describe('NSEC3 (RFC 5155) with RFC 9276\u2019s parameters', () => {
  let zone: string;
  let state: DnssecState;
  beforeAll(async () => {
    ({ zone, state } = await signedZone({ algorithm: 13, denial: 'nsec3', nsec3OptOut: false }));
  });

  it('says how the zone is signed, and publishes SHA-1, no extra iterations, no salt', async () => {
    expect(state).toMatchObject({ enabled: true, algorithm: 13, denial: 'nsec3', nsec3OptOut: false });
    expect((await dig(port, ['+short', zone, 'NSEC3PARAM'])).trim()).toBe('1 0 0 -');
  });

  it('delv validates positive answers, NXDOMAIN, NODATA, an empty non-terminal, wildcards and insecure delegations', async () => {
    await expectValidates(zone, state.ds[0]);
    // The proof names no owner: the NXDOMAIN carries hashed owners and no NSEC.
    const nx = await dig(port, ['+norec', '+nocookie', '+dnssec', `nope.${zone}`, 'A']);
    expect(nx).toMatch(/IN\s+NSEC3\s+1 0 0 - [0-9A-V]{32}/);
    expect(nx).not.toMatch(/\sNSEC\s/);
  });

  it('transfers the zone with its NSEC3 chain, which dnssec-verify accepts (and refuses once a link is gone)', async () => {
    const text = await transfer(zone);
    const verdict = verifySignedZone(zone, text);
    expect(verdict.ok, verdict.log).toBe(true);
    expect(text).toMatch(/\sIN\s+NSEC3\s+1 0 0 - [0-9A-V]{32}/);
    expect(text).toMatch(/\sIN\s+NSEC3PARAM\s+1 0 0 -/);
    expect(text).not.toMatch(/\sIN\s+NSEC\s/);
    const lines = text.split('\n');
    const link = lines.findIndex((l) => /\sIN\s+NSEC3\s/.test(l));
    expect(verifySignedZone(zone, lines.filter((_, i) => i !== link).join('\n')).ok).toBe(false);
  });

  it('switches to NSEC and back with the same key: the same DS validates each version', async () => {
    const ds = state.ds[0];
    const toNsec = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: true, algorithm: 13, denial: 'nsec', nsec3OptOut: false });
    expect(toNsec.body).toMatchObject({ denial: 'nsec', keyTag: state.keyTag });
    const nx = await delv(port, zone, ds, `nope.${zone}`, 'A');
    expect(validatedNegative(nx), nx).toBe(true);
    expect((await dig(port, ['+short', zone, 'NSEC3PARAM'])).trim()).toBe('');
    const back = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: true, algorithm: 13, denial: 'nsec3', nsec3OptOut: false });
    expect(back.body).toMatchObject({ denial: 'nsec3', ds: state.ds });
    expect(validatedNegative(await delv(port, zone, ds, `nope.${zone}`, 'A'))).toBe(true);
    const history = await client.call('getZoneHistory', { query: { zoneName: zone }, headers: client.withToken(await client.signIn(OWNER_KEY)) });
    expect(history.status).toBe(200);
    expect(JSON.stringify(history.body)).toContain('"dnssecSigning":{"before":{"algorithm":13,"denial":"nsec3","nsec3OptOut":false},"after":{"algorithm":13,"denial":"nsec","nsec3OptOut":false}}');
  });
});

describe('NSEC3 with opt-out', () => {
  it('leaves unsigned delegations out of the chain; delv still proves them insecure, and dnssec-verify accepts the zone', async () => {
    const { zone, state } = await signedZone({ algorithm: 13, denial: 'nsec3', nsec3OptOut: true });
    expect(state).toMatchObject({ denial: 'nsec3', nsec3OptOut: true });
    const ds = state.ds[0];
    expect(validated(await delv(port, zone, ds, `www.${zone}`, 'A'))).toBe(true);
    for (const q of [`nope.${zone} A`, `mail.${zone} TXT`, `deep.${zone} A`, `lab.${zone} DS`, `sub.unsigned.${zone} DS`, `unsigned.${zone} A`]) {
      const [name, type] = q.split(' ');
      const text = await delv(port, zone, ds, name, type);
      expect(validatedNegative(text), `${q}\n${text}`).toBe(true);
    }
    // The opted-out delegation has no NSEC3 of its own: its absence of DS is the opt-out span covering it.
    expect(await dig(port, ['+norec', '+nocookie', '+dnssec', `sub.unsigned.${zone}`, 'DS'])).toMatch(/IN\s+NSEC3\s+1 1 0 - /);
    // A wildcard expansion in an opt-out span is insecure to a validator (an unsigned delegation could hide there,
    // RFC 5155 §9.2), as with BIND's own opt-out zones: answered, not bogus.
    const wildcard = await delv(port, zone, ds, `store7.shop.${zone}`, 'TXT');
    expect(wildcard, wildcard).toMatch(/; unsigned answer\n[^\n]*"any shop"/);
    const text = await transfer(zone);
    expect(text).toMatch(/IN\s+NSEC3\s+1 1 0 - /);
    const verdict = verifySignedZone(zone, text);
    expect(verdict.ok, verdict.log).toBe(true);
  });
});

/** The dashboard's "Live?" check: DoH with the DO bit, the RRSIG checked with WebCrypto. */
async function liveSigned(zone: string, fqdn: string) {
  const ask = async (name: string, type: Parameters<typeof encodeQuery>[1]) => {
    const dns = Buffer.from(encodeQuery(name, type, 0, { dnssecOk: true })).toString('base64url');
    return decodeResponse(new Uint8Array(await (await fetch(`${service.origin}/dns-query?dns=${dns}`)).arrayBuffer()));
  };
  return checkSignedAnswer({ zone, fqdn, type: 'A', answer: await ask(fqdn, 'A'), dnskey: await ask(zone, 'DNSKEY'), now: new Date() });
}

describe('Ed25519 (algorithm 15)', () => {
  for (const denial of ['nsec', 'nsec3']) {
    it(`signs with Ed25519 beside ${denial.toUpperCase()}: delv validates, dnssec-verify accepts, the DS says 15, the dashboard's check says signed`, async () => {
      const { zone, state } = await signedZone({ algorithm: 15, denial, nsec3OptOut: false });
      expect(state).toMatchObject({ algorithm: 15, denial, ds: [{ algorithm: 15, digestType: 2 }] });
      expect(state.dnskey).toMatch(/ DNSKEY 257 3 15 [A-Za-z0-9+/]{43}=$/);
      await expectValidates(zone, state.ds[0]);
      const verdict = verifySignedZone(zone, await transfer(zone));
      expect(verdict.ok, verdict.log).toBe(true);
      expect(verdict.log).toMatch(/ED25519/);
      expect(await liveSigned(zone, `www.${zone}`)).toMatchObject({ signed: true, keyTag: state.keyTag });
    });
  }

  it('an algorithm change of an NSEC3 zone starts a rollover (dnssec-rollover.test.ts): signed by both keys, it validates with the old DS and dnssec-verify accepts it; another change during it is refused with why', async () => {
    const { zone, state } = await signedZone({ algorithm: 13, denial: 'nsec3', nsec3OptOut: false });
    const change = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: true, algorithm: 15, denial: 'nsec3', nsec3OptOut: false });
    expect(change.status).toBe(200);
    expect(change.body).toMatchObject({ algorithm: 13, denial: 'nsec3', ds: state.ds, rollover: { phase: 'new-rrsigs', to: { algorithm: 15 } } });
    // Every NSEC3 carries both keys' signatures (the chain is one): the proofs validate with the old DS.
    const nx = await dig(port, ['+norec', '+nocookie', '+dnssec', `nope.${zone}`, 'A']);
    expect(nx).toMatch(/RRSIG\s+NSEC3 13 /);
    expect(nx).toMatch(/RRSIG\s+NSEC3 15 /);
    const [www, nxdomain, nodata] = await Promise.all([`www.${zone} A`, `nope.${zone} A`, `mail.${zone} TXT`].map((q) => delv(port, zone, state.ds[0], ...(q.split(' ') as [string, string]))));
    expect(validated(www), www).toBe(true);
    expect(validatedNegative(nxdomain), nxdomain).toBe(true);
    expect(validatedNegative(nodata), nodata).toBe(true);
    const verdict = verifySignedZone(zone, await transfer(zone));
    expect(verdict.ok, verdict.log).toBe(true);
    const back = await client.signed(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: zone, enabled: true, algorithm: 13, denial: 'nsec3', nsec3OptOut: false });
    expect(back.status).toBe(409);
    expect(back.body.message).toMatch(/rolling over to algorithm 15/);
    expect((await client.call('getDnssec', { query: { normalizedDomainName: zone } })).body).toEqual(change.body);
  });
});
