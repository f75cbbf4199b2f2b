import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnssecState } from '#core/wire/dnssec.ts';
import { bindToolsMissing, delv, dig, verifySignedZone } from '../../test/support/bind.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

if (bindToolsMissing()) throw new Error(bindToolsMissing() as string);

/**
 * An algorithm rollover (RFC 6781 §4.1.4), driven by the test clock: at every step BIND's `delv` validates the
 * zone's answers with the DS the test's "parent" holds then (the old one; then old and new, or the new alone, as the
 * owner would put them), and `dnssec-verify` accepts the zone as transferred.
 */

const [OWNER_KEY] = TEST_KEYS;
const ZONE = 'roll.com';
let service: TestService;
let client: TestClient;
let port: number;

beforeAll(async () => {
  service = await startTestService({ DNS_PORT: '0', DEV_CONTROLS: 'true' });
  client = testClient(service);
  port = service.dns?.port as number;
  await service.services.ownership.mint({ name: ZONE, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: service.services.now() });
  const records = [
    { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 },
    { name: 'mail', type: 'A', rdata: '192.0.2.25', ttl: 7200 },
  ];
  expect((await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: ZONE, records })).status).toBe(200);
});
afterAll(() => service.destroy());

type Ds = DnssecState['ds'][number];
const dsOf = (key: { algorithm: number; keyTag: number; ds: string }): Ds => ({ keyTag: key.keyTag, algorithm: key.algorithm as Ds['algorithm'], digestType: 2, digest: key.ds.split(' ').at(-1) as string });

const state = async () => (await client.call('getDnssec', { query: { normalizedDomainName: ZONE } })).body as DnssecState;

async function advanceTo(at: string) {
  const seconds = Math.ceil((Date.parse(at) - service.services.now().getTime()) / 1000) + 1;
  const response = await fetch(`${service.baseUrl}/dev/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceSeconds: Math.max(1, seconds) }) });
  expect(response.status).toBe(200);
}

/** The algorithms of the RRSIGs over a set, and the DNSKEY and CDS key tags, as the name server answers them now. */
async function served() {
  const lines = async (name: string, type: string) => (await dig(port, ['+norec', '+nocookie', '+dnssec', '+noall', '+answer', name, type])).split('\n').filter(Boolean);
  const [www, dnskey, cds] = await Promise.all([lines(`www.${ZONE}`, 'A'), lines(ZONE, 'DNSKEY'), lines(ZONE, 'CDS')]);
  // Fields: owner, TTL, class, type, data…
  const ofType = (answer: string[], type: string) => answer.map((l) => l.split(/\s+/)).filter((f) => f[3] === type);
  const rrsigAlgorithms = ofType(www, 'RRSIG').map((f) => Number(f[5])).sort();
  const dnskeyAlgorithms = ofType(dnskey, 'DNSKEY').map((f) => Number(f[6])).sort();
  const cdsTags = ofType(cds, 'CDS').map((f) => Number(f[4]));
  return { rrsigAlgorithms, dnskeyAlgorithms, cdsTags };
}

/** What is served once the version the last change made is loaded (the announcement reaches the name server a moment after the commit). */
async function servedOnce(expected: Awaited<ReturnType<typeof served>>) {
  let now = await served();
  for (let i = 0; i < 50 && JSON.stringify(now) !== JSON.stringify(expected); i += 1) {
    await new Promise((done) => setTimeout(done, 50));
    now = await served();
  }
  expect(now).toEqual(expected);
}

const validated = (text: string) => /; fully validated/.test(text) && !/resolution failed/.test(text);
const validatedNegative = (text: string) => /; negative response, fully validated/.test(text);

/** delv, given each DS set in turn as the parent's, validates a positive answer and an NXDOMAIN (and with them the DNSKEY set). */
async function expectValidates(why: string, ...parents: Ds[][]) {
  const asked = parents.flatMap((anchors) => [`www.${ZONE} A`, `nope.${ZONE} A`].map((question) => ({ anchors, question })));
  const answers = await Promise.all(asked.map(({ anchors, question }) => delv(port, ZONE, anchors, ...(question.split(' ') as [string, string]))));
  asked.forEach(({ anchors, question }, i) => {
    const ok = question.startsWith('www') ? validated(answers[i]) : validatedNegative(answers[i]);
    expect(ok, `${why}, DS ${anchors.map((d) => d.keyTag).join('+')}: ${question}\n${answers[i]}`).toBe(true);
  });
}

async function expectZoneVerifies(why: string) {
  const text = (await dig(port, ['+nocookie', ZONE, 'AXFR']))
    .split('\n')
    .filter((l) => l && !l.startsWith(';'))
    .join('\n');
  const verdict = verifySignedZone(ZONE, `${text}\n`);
  expect(verdict.ok, `${why}\n${verdict.log}`).toBe(true);
}

describe('an algorithm rollover from 13 (ECDSA P-256) to 15 (Ed25519), step by step on the test clock', () => {
  it('validates at every step with the DS the parent holds, and ends signed by the new key alone', async () => {
    const on = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: ZONE, enabled: true, algorithm: 13, denial: 'nsec', nsec3OptOut: false });
    expect(on.status).toBe(200);
    const oldDs = on.body.ds[0];

    // new RRSIGs: both keys sign every set; only the old DNSKEY is published; the parent keeps the old DS.
    const start = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: ZONE, enabled: true, algorithm: 15, denial: 'nsec', nsec3OptOut: false });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.body).toMatchObject({ algorithm: 13, ds: [oldDs], rollover: { phase: 'new-rrsigs', from: { algorithm: 13, keyTag: oldDs.keyTag }, to: { algorithm: 15 } } });
    const rollover = start.body.rollover!;
    const newDs = dsOf(rollover.to);
    // The wait is the zone's largest TTL (mail's 7,200 s) and the propagation (SOA refresh + retry).
    expect(Date.parse(rollover.nextStepAt!) - Date.parse(rollover.since)).toBe((7200 + 14400 + 3600) * 1000);
    await servedOnce({ rrsigAlgorithms: [13, 15], dnskeyAlgorithms: [13], cdsTags: [oldDs.keyTag] });
    await expectValidates('new RRSIGs', [oldDs]);
    await expectZoneVerifies('new RRSIGs');
    // The new DS must not go to the parent yet: its DNSKEY is not even published.
    const early = await client.signed(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: ZONE, enabled: true, dsAtParent: newDs.keyTag });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/Too early/);

    // A TTL raised meanwhile puts the step off: a set cached with it may still carry the old key's signature alone.
    expect((await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, name: 'slow', type: 'TXT', rdata: '"cached a day"', ttl: 86400 })).status).toBe(200);
    await advanceTo(rollover.nextStepAt!);
    const later = (await state()).rollover!;
    expect(later).toMatchObject({ phase: 'new-rrsigs', since: rollover.since });
    expect(Date.parse(later.nextStepAt!) - Date.parse(rollover.since)).toBe((86400 + 14400 + 3600) * 1000);

    // new DNSKEY: both keys published; still the old DS.
    await advanceTo(later.nextStepAt!);
    expect((await state()).rollover).toMatchObject({ phase: 'new-dnskey' });
    await servedOnce({ rrsigAlgorithms: [13, 15], dnskeyAlgorithms: [13, 15], cdsTags: [oldDs.keyTag] });
    await expectValidates('new DNSKEY', [oldDs]);
    await expectZoneVerifies('new DNSKEY');

    // new DS: CDS names the new key, the state says which DS to put at the parent; the step waits for the owner.
    await advanceTo((await state()).rollover!.nextStepAt!);
    const waiting = await state();
    expect(waiting).toMatchObject({ algorithm: 15, ds: [newDs], rollover: { phase: 'new-ds', nextStepAt: null } });
    await servedOnce({ rrsigAlgorithms: [13, 15], dnskeyAlgorithms: [13, 15], cdsTags: [newDs.keyTag] });
    // The parent not yet changed, both DS at the parent, the new one alone.
    await expectValidates('new DS', [oldDs], [oldDs, newDs], [newDs]);
    await expectZoneVerifies('new DS');
    await advanceTo(new Date(service.services.now().getTime() + 30 * 86400_000).toISOString());
    expect((await state()).rollover).toMatchObject({ phase: 'new-ds' });

    // The owner says the parent holds the new DS (a wrong key tag is refused where it was made).
    const wrong = await client.signed(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: ZONE, enabled: true, dsAtParent: oldDs.keyTag });
    expect(wrong.status).toBe(400);
    const off = await client.signed(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: ZONE, enabled: false, dsAtParent: newDs.keyTag });
    expect(off.status).toBe(400);
    expect((await state()).rollover).toMatchObject({ phase: 'new-ds' });
    const said = await client.signed<DnssecState>(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: ZONE, enabled: true, dsAtParent: newDs.keyTag });
    expect(said.status, JSON.stringify(said.body)).toBe(200);
    expect(said.body.rollover).toMatchObject({ phase: 'ds-changed' });
    // The new DS, and a cache still holding the old one.
    await expectValidates('DS changed', [newDs], [oldDs]);

    // DNSKEY removal: only the new key published, the old key's signatures stay a while.
    await advanceTo(said.body.rollover!.nextStepAt!);
    await servedOnce({ rrsigAlgorithms: [13, 15], dnskeyAlgorithms: [15], cdsTags: [newDs.keyTag] });
    await expectValidates('DNSKEY removal', [newDs]);
    await expectZoneVerifies('DNSKEY removal');

    // RRSIGs removal: done, the new key alone.
    await advanceTo((await state()).rollover!.nextStepAt!);
    const done = await state();
    expect(done).toMatchObject({ algorithm: 15, keyTag: newDs.keyTag, ds: [newDs], rollover: null });
    await servedOnce({ rrsigAlgorithms: [15], dnskeyAlgorithms: [15], cdsTags: [newDs.keyTag] });
    await expectValidates('done', [newDs]);
    await expectZoneVerifies('done');

    // Each step is a history entry: the owner's start and word, the service's steps, in order.
    const history = await client.call('getZoneHistory', { query: { zoneName: ZONE }, headers: client.withToken(await client.signIn(OWNER_KEY)) });
    const steps = (history.body as { entries: Array<{ operation: string; actor: { via: string }; dnssecRollover?: { phase: { after: string } } }> }).entries
      .filter((entry) => entry.dnssecRollover)
      .map((entry) => `${entry.operation} ${entry.actor.via} ${entry.dnssecRollover!.phase.after}`)
      .reverse();
    expect(steps).toEqual([
      'toggleDnssec eip712 new-rrsigs',
      'advanceDnssecRollover service new-dnskey',
      'advanceDnssecRollover service new-ds',
      'toggleDnssec eip712 ds-changed',
      'advanceDnssecRollover service dnskey-removal',
      'advanceDnssecRollover service done',
    ]);
  }, 60_000);
});
