/**
 * The mail check against real servers: BIND serves an "outside" zone (an SPF include chain, mail servers, a good
 * provider), the service resolves it through DNS_RESOLVER, and checkMailAuth reads the service's own zones from its
 * database. One service and one BIND for the file.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { txtToWire } from '#core/dns/rdata.ts';
import type { MailFinding } from '#core/wire/mail.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { nameServersMissing, startNamed, type RunningNameServer } from '../../test/support/name-servers.ts';
import { freePort } from '../../test/support/ports.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { checkMail } from './mail-check.ts';
import { serviceResolver } from './resolver.ts';

const missing = nameServersMissing(['named']);
if (missing) throw new Error(missing);

const [OWNER_KEY] = TEST_KEYS;
const OUTSIDE = 'outside.test';
const DKIM_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

/** spf1 includes spf2 … spf10, which ends with `a`: with the zone's own include, 11 lookups. */
const chain = Array.from({ length: 10 }, (_, i) => `spf${i + 1} IN TXT "v=spf1 ${i < 9 ? `include:spf${i + 2}.${OUTSIDE}` : 'a'} -all"`);
const OUTSIDE_ZONE = [
  `$TTL 60`,
  `@ IN SOA ns.${OUTSIDE}. hostmaster.${OUTSIDE}. 1 3600 600 86400 60`,
  `@ IN NS ns.${OUTSIDE}.`,
  `ns IN A 127.0.0.1`,
  `mx IN A 192.0.2.25`,
  `good IN TXT "v=spf1 ip4:192.0.2.0/24 -all"`,
  ...chain,
  '',
].join('\n');

let dir: string;
let named: RunningNameServer;
let service: TestService;
let client: TestClient;

type Rec = { name: string; type: string; rdata: string; ttl?: number };
async function register(zone: string, records: Rec[]) {
  await service.services.ownership.mint({ name: zone, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
  if (records.length > 0) await add(zone, records);
}
async function add(zone: string, records: Rec[]) {
  const reply = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: zone, records: records.map((r) => ({ ttl: 300, ...r })) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}
async function check(zone: string): Promise<MailFinding[]> {
  const reply = await client.call('checkMailAuth', { query: { zoneName: zone } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.findings;
}
const byId = (findings: MailFinding[], id: string) => findings.find((f) => f.id === id);
const txt = (text: string) => txtToWire(text);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'namefi-mail-'));
  const port = await freePort();
  writeFileSync(join(dir, 'outside.db'), OUTSIDE_ZONE);
  named = await startNamed(dir, port, `zone "${OUTSIDE}" { type primary; file "${join(dir, 'outside.db')}"; };`, OUTSIDE);
  service = await startTestService({ DNS_RESOLVER: `127.0.0.1:${port}` });
  client = testClient(service);
}, 60_000);

afterAll(async () => {
  await service?.destroy();
  await named?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('checkMailAuth', () => {
  it('finds the 11-lookup SPF chain built in a BIND zone and names the chain', async () => {
    await register('chain-mail.com', [{ name: '@', type: 'TXT', rdata: txt(`v=spf1 include:spf1.${OUTSIDE} -all`) }]);
    const finding = byId(await check('chain-mail.com'), 'spf-too-many-lookups');
    expect(finding?.severity).toBe('error');
    expect(finding?.message).toContain('11 DNS lookups');
    expect(finding?.message).toContain(`include:spf1.${OUTSIDE} → include:spf2.${OUTSIDE}`);
    expect(finding?.message).toContain(`include:spf10.${OUTSIDE} → a`);
  });

  it('reports a missing DMARC record with the record that fixes it, and the fix is accepted and clears it', async () => {
    await register('no-dmarc.com', [
      { name: '@', type: 'TXT', rdata: txt('v=spf1 mx -all') },
      { name: '@', type: 'MX', rdata: `10 nowhere.${OUTSIDE}.` },
    ]);
    const findings = await check('no-dmarc.com');
    const dmarc = byId(findings, 'dmarc-missing');
    expect(dmarc?.severity).toBe('error');
    expect(dmarc?.fix).toEqual({ name: '_dmarc', type: 'TXT', rdata: '"v=DMARC1; p=none; rua=mailto:dmarc@no-dmarc.com"' });
    expect(byId(findings, 'mx-target')).toMatchObject({ severity: 'error', record: `10 nowhere.${OUTSIDE}` });
    // MTA-STS and TLS-RPT are advice: warnings, never errors.
    expect(byId(findings, 'mta-sts-missing')?.severity).toBe('warning');
    expect(byId(findings, 'tls-rpt-missing')?.severity).toBe('warning');

    await add('no-dmarc.com', [dmarc!.fix!]);
    const after = await check('no-dmarc.com');
    expect(byId(after, 'dmarc-missing')).toBeUndefined();
    expect(byId(after, 'dmarc-policy')?.severity).toBe('warning');
  });

  it('finds a good setup good: every finding ok', async () => {
    await register('good-mail.com', [
      { name: '@', type: 'TXT', rdata: txt(`v=spf1 include:good.${OUTSIDE} mx -all`) },
      { name: '@', type: 'MX', rdata: `10 mx.${OUTSIDE}.` },
      { name: '@', type: 'MX', rdata: '20 mx2.good-mail.com.' },
      { name: 'mx2', type: 'A', rdata: '192.0.2.26' },
      { name: '_dmarc', type: 'TXT', rdata: txt('v=DMARC1; p=reject; rua=mailto:dmarc@good-mail.com') },
      { name: 'google._domainkey', type: 'TXT', rdata: txt(`v=DKIM1; k=rsa; p=${DKIM_KEY}`) },
      { name: '_mta-sts', type: 'TXT', rdata: txt('v=STSv1; id=20260101') },
      { name: '_smtp._tls', type: 'TXT', rdata: txt('v=TLSRPTv1; rua=mailto:tls@good-mail.com') },
    ]);
    const findings = await check('good-mail.com');
    expect(findings.filter((f) => f.severity !== 'ok'), JSON.stringify(findings, null, 1)).toEqual([]);
    expect(byId(findings, 'spf-ok')?.message).toContain('2 of 10');
    expect(byId(findings, 'dkim-ok')?.message).toContain('RSA 2048 bits');
    expect(findings.map((f) => f.id).sort()).toEqual(['dkim-ok', 'dmarc-ok', 'mta-sts-ok', 'mx-ok', 'spf-ok', 'tls-rpt-ok']);
  });

  it('refuses +all with a fix, and finds two SPF records', async () => {
    await register('pass-all.com', [{ name: '@', type: 'TXT', rdata: txt('v=spf1 ip4:192.0.2.1 +all') }]);
    expect(byId(await check('pass-all.com'), 'spf-pass-all')).toMatchObject({ severity: 'error', fix: { name: '@', type: 'TXT', rdata: '"v=spf1 ip4:192.0.2.1 ~all"' } });

    await register('two-spf.com', [
      { name: '@', type: 'TXT', rdata: txt('v=spf1 -all') },
      { name: '@', type: 'TXT', rdata: txt('v=spf1 mx -all') },
    ]);
    expect(byId(await check('two-spf.com'), 'spf-multiple')?.severity).toBe('error');
  });

  it('names a malformed SPF term, and answers 404 for a zone it does not hold', async () => {
    // The record editor refuses it where it is typed (rule DNS_SPF_SYNTAX)...
    await register('bad-spf.com', []);
    const refused = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: 'bad-spf.com', records: [{ name: '@', type: 'TXT', rdata: txt('v=spf1 inclde:example.com -all'), ttl: 300 }] });
    expect(refused.status).toBe(400);
    expect(refused.body.data).toMatchObject({ rule: 'DNS_SPF_SYNTAX', fieldErrors: { 'records.0.rdata': [expect.stringContaining('"inclde" is not an SPF mechanism')] } });
    // ...so the check meets one only where it was stored before the rule (put straight in the database here).
    await service.services.db.query(
      `INSERT INTO dns_records (id, zone_name, name, type, ttl, rdata, created_at, updated_at) VALUES (gen_random_uuid(), 'bad-spf.com', '@', 'TXT', 300, $1, now(), now())`,
      [txt('v=spf1 inclde:example.com -all')],
    );
    expect(byId(await check('bad-spf.com'), 'spf-syntax')?.message).toContain('"inclde" is not an SPF mechanism');
    expect((await client.call('checkMailAuth', { query: { zoneName: 'not-held.com' } })).status).toBe(404);
  });

  it('without DNS_RESOLVER resolves only its own zones: an outside include is reported unresolved, never asked', async () => {
    const { db, zoneCache, config } = service.services;
    const resolver = serviceResolver({ db, zoneCache, config: { ...config, DNS_RESOLVER: [] } });
    expect(await resolver.lookup(`mx.${OUTSIDE}`, 'A')).toEqual({ status: 'unresolved', reason: `mx.${OUTSIDE} lies outside this service's zones and no DNS_RESOLVER is configured` });
    expect(await resolver.lookup('mx2.good-mail.com', 'A')).toEqual({ status: 'ok', values: ['192.0.2.26'] });
    expect((await resolver.lookup('nothing.good-mail.com', 'A')).status).toBe('nxdomain');
    const findings = await checkMail('chain-mail.com', resolver);
    expect(byId(findings, 'spf-include')?.message).toContain(`include:spf1.${OUTSIDE} (in chain-mail.com) could not be resolved`);
    expect(byId(findings, 'spf-too-many-lookups')).toBeUndefined();
  });
});
