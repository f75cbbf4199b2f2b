/**
 * DNS UPDATE through a scoped key's TSIG form, as Debian's clients send it: `nsupdate` (BIND) and `knsupdate`
 * (Knot), over UDP (answered by a UDP thread's socket, resolved on the main thread) and TCP. Every prerequisite and
 * update form, each refusal with its rcode and Extended DNS Error, keyed transfers with `dig -y`, and what the
 * history and the key list say afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dig } from '../../../test/support/bind.ts';
import { TEST_KEYS, testClient, type TestClient } from '../../../test/support/client.ts';
import { runUpdateTool, shortAnswer, tsigKey, unparkedZone, updateToolsMissing, type TsigForm, type UpdateTool } from '../../../test/support/dns-update.ts';
import { startTestService, type TestService } from '../../../test/support/test-service.ts';

const missing = updateToolsMissing();
if (missing) throw new Error(missing);

const [OWNER] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let token: string;
let port: number;

beforeAll(async () => {
  // Transfers only from an address nobody has: what a keyed transfer gets is the key's doing.
  // TSIG secrets sealed under SECRETS_KEY: every UPDATE below opens one.
  service = await startTestService({ DNS_PORT: '0', DNS_UDP_THREADS: '1', DNS_AXFR_ALLOW: '192.0.2.53', SECRETS_KEY: 'the update tests’ secrets key, 32+ chars' });
  client = testClient(service);
  token = await client.signIn(OWNER);
  port = service.dns!.port;
});
afterAll(() => service.destroy());

const script = (zone: string, lines: string[]) => `server 127.0.0.1 ${port}\nzone ${zone}\n${lines.join('\n')}\nsend\n`;
const short = (name: string, type: 'A' | 'AAAA' | 'TXT' | 'MX' | 'NS' | 'SOA') => shortAnswer(port, name, type);
const serial = async (zone: string) => Number((await short(zone, 'SOA'))[0]?.split(' ')[2]);
const history = async (zone: string) => (await client.call('getZoneHistory', { query: { zoneName: zone }, headers: client.withToken(token) })).body.entries as Array<{ operation: string; serial: number; actor: Record<string, unknown>; changes: unknown[] }>;

/** A fresh zone with a whole-zone write key. */
async function zoneWithKey(zone: string): Promise<TsigForm> {
  await unparkedZone(service, client, OWNER, zone);
  return (await tsigKey(client, token, { zones: [zone] })).tsig;
}

describe.each(['nsupdate', 'knsupdate'] as UpdateTool[])('%s', (tool) => {
  const zone = `${tool}-forms.com`;
  const update = async (lines: string[], key: TsigForm, tcp = false) => runUpdateTool(tool, script(zone, lines), key, { tcp });

  it('applies the four update forms, over UDP and TCP, one serial step and one history entry per message', async () => {
    const key = await zoneWithKey(zone);
    const start = await serial(zone);
    // Add to an RRset (twice in one message), over UDP.
    expect((await update([`update add www.${zone} 300 A 192.0.2.1`, `update add www.${zone} 300 A 192.0.2.2`, `update add txt.${zone} 300 TXT "one"`], key)).code).toBe(0);
    expect(await short(`www.${zone}`, 'A')).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(await serial(zone)).toBe(start + 1);
    // Delete one RR, over TCP.
    expect((await update([`update delete www.${zone} A 192.0.2.1`], key, true)).code).toBe(0);
    expect(await short(`www.${zone}`, 'A')).toEqual(['192.0.2.2']);
    // Delete an RRset.
    expect((await update([`update delete txt.${zone} TXT`], key)).code).toBe(0);
    expect(await short(`txt.${zone}`, 'TXT')).toEqual([]);
    // Delete every RRset at a name, and at the apex (its SOA and NS stay).
    expect((await update([`update add www.${zone} 300 AAAA 2001:db8::1`, `update add ${zone} 300 MX 10 mx.${zone}.`], key)).code).toBe(0);
    expect((await update([`update delete www.${zone}`, `update delete ${zone}`], key, true)).code).toBe(0);
    expect([...(await short(`www.${zone}`, 'A')), ...(await short(`www.${zone}`, 'AAAA')), ...(await short(zone, 'MX'))]).toEqual([]);
    expect(await short(zone, 'NS')).toHaveLength(2);
    expect(await serial(zone)).toBe(start + 5);
    const entries = await history(zone);
    const doors = entries.filter((e) => e.operation === 'dnsUpdate');
    expect(doors).toHaveLength(5);
    expect(doors[0].actor).toMatchObject({ via: 'api-key', client: 'rfc2136', apiKeyScope: { zones: [zone] } });
    expect(doors.map((e) => e.serial)).toEqual([start + 5, start + 4, start + 3, start + 2, start + 1]);
  });

  it('checks the five prerequisite forms first: each failing one answers its rcode and writes nothing', async () => {
    const key = (await tsigKey(client, token, { zones: [zone] })).tsig;
    expect((await update([`update add pre.${zone} 300 A 192.0.2.7`], key)).code).toBe(0);
    const before = await serial(zone);
    const failing: Array<[string, string]> = [
      [`prereq yxdomain absent.${zone}`, 'NXDOMAIN'],
      [`prereq nxdomain pre.${zone}`, 'YXDOMAIN'],
      [`prereq yxrrset pre.${zone} TXT`, 'NXRRSET'],
      [`prereq nxrrset pre.${zone} A`, 'YXRRSET'],
      [`prereq yxrrset pre.${zone} A 192.0.2.8`, 'NXRRSET'],
    ];
    for (const [prereq, rcode] of failing) {
      const run = await update([prereq, `update add written.${zone} 300 A 192.0.2.9`], key);
      expect(run.code, prereq).not.toBe(0);
      expect(run.output, prereq).toContain(rcode);
    }
    expect(await short(`written.${zone}`, 'A')).toEqual([]);
    expect(await serial(zone)).toBe(before);
    // The same five holding: the update is made.
    const holding = [`prereq yxdomain pre.${zone}`, `prereq nxdomain absent.${zone}`, `prereq yxrrset pre.${zone} A`, `prereq nxrrset pre.${zone} TXT`, `prereq yxrrset pre.${zone} A 192.0.2.7`];
    expect((await update([...holding, `update add written.${zone} 300 A 192.0.2.9`], key)).code).toBe(0);
    expect(await short(`written.${zone}`, 'A')).toEqual(['192.0.2.9']);
  });

  it('answers a message that changes nothing with NOERROR, and no serial step or entry', async () => {
    const key = (await tsigKey(client, token, { zones: [zone] })).tsig;
    expect((await update([`update add same.${zone} 300 A 192.0.2.10`], key)).code).toBe(0);
    const [before, entries] = [await serial(zone), (await history(zone)).length];
    expect((await update([`update add same.${zone} 300 A 192.0.2.10`, `update delete gone.${zone} A`], key)).code).toBe(0);
    expect(await serial(zone)).toBe(before);
    expect((await history(zone)).length).toBe(entries);
  });
});

describe('refusals', () => {
  const zone = 'refusals.com';
  let key: TsigForm;
  beforeAll(async () => {
    key = await zoneWithKey(zone);
  });

  /** nsupdate -d: the reply's rcode and its Extended DNS Error as BIND prints them. */
  async function refused(lines: string[], form: TsigForm | null, z = zone) {
    const { code, output } = await runUpdateTool('nsupdate', script(z, lines), form, { debug: true });
    const reply = output.slice(output.indexOf('Reply from update query'));
    return { code, status: /status: (\w+)/.exec(reply)?.[1] ?? /update failed: (\S+)/.exec(output)?.[1], ede: /; EDE: (\d+) \([^)]*\): \((.*)\)/.exec(reply)?.slice(1, 3) ?? null, output };
  }

  it('refuses an unsigned update, an unknown key and a wrong secret (REFUSED, NOTAUTH/BADKEY, NOTAUTH/BADSIG)', async () => {
    expect(await refused([`update add a.${zone} 300 A 192.0.2.1`], null)).toMatchObject({ status: 'REFUSED', ede: ['18', expect.stringContaining('signed')] });
    const plain = (form: TsigForm) => runUpdateTool('nsupdate', script(zone, [`update add a.${zone} 300 A 192.0.2.1`]), form);
    expect((await plain({ ...key, keyName: 'no-such-key.' })).output).toContain('NOTAUTH(BADKEY)');
    expect((await plain({ ...key, secret: Buffer.alloc(32, 7).toString('base64') })).output).toContain('NOTAUTH(BADSIG)');
    expect(await short(`a.${zone}`, 'A')).toEqual([]);
  });

  it('refuses a zone it does not hold (NOTAUTH), a zone outside the key (REFUSED/18) and a name outside the zone (NOTZONE)', async () => {
    expect(await refused([`update add a.elsewhere.com 300 A 192.0.2.1`], key, 'elsewhere.com')).toMatchObject({ status: 'NOTAUTH', ede: ['0', 'elsewhere.com is not a zone this service holds'] });
    await unparkedZone(service, client, OWNER, 'other-zone.com');
    expect(await refused([`update add a.other-zone.com 300 A 192.0.2.1`], key, 'other-zone.com')).toMatchObject({ status: 'REFUSED', ede: ['18', expect.stringContaining('does not include other-zone.com')] });
    expect((await refused([`update add a.other-zone.com 300 A 192.0.2.1`], key)).status).toBe('NOTZONE');
  });

  it('refuses the whole message when one record lies outside the key’s scope (REFUSED/18 naming it): the good ones are not written either', async () => {
    const acme = (await tsigKey(client, token, { zones: [zone], names: ['_acme-challenge'], types: ['TXT'] })).tsig;
    const before = await serial(zone);
    const result = await refused([`update add _acme-challenge.${zone} 60 TXT "good"`, `update add www.${zone} 60 A 192.0.2.1`], acme);
    expect(result).toMatchObject({ status: 'REFUSED', ede: ['18', expect.stringContaining('adds A at www')] });
    expect((await refused([`update delete ${zone}`], acme)).ede).toEqual(['18', expect.stringContaining('deletes every record ANY at @')]);
    expect(await short(`_acme-challenge.${zone}`, 'TXT')).toEqual([]);
    expect(await serial(zone)).toBe(before);
    // Within its scope, the same key writes.
    expect((await runUpdateTool('nsupdate', script(zone, [`update add _acme-challenge.${zone} 60 TXT "good"`]), acme)).code).toBe(0);
  });

  it('refuses a read-only key and one used from outside its addresses (REFUSED/18)', async () => {
    const reader = (await tsigKey(client, token, { zones: [zone], access: 'read' })).tsig;
    expect(await refused([`update add r.${zone} 300 A 192.0.2.1`], reader)).toMatchObject({ status: 'REFUSED', ede: ['18', expect.stringContaining('may only read')] });
    const far = (await tsigKey(client, token, { zones: [zone], cidrs: ['198.51.100.0/24'] })).tsig;
    expect(await refused([`update add r.${zone} 300 A 192.0.2.1`], far)).toMatchObject({ status: 'REFUSED', ede: ['18', expect.stringContaining('only from 198.51.100.0/24')] });
  });

  it('keeps the SOA, the apex NS and managed records (REFUSED/0 naming the record and rule), and the zone rules', async () => {
    const cases: Array<[string, string]> = [
      [`update add ${zone} 300 SOA ns1.namefi.test. hostmaster.${zone}. 1 2 3 4 5`, 'SOA'],
      [`update delete ${zone} NS`, 'NS'],
      [`update add ${zone} 300 NS ns9.example.net.`, 'NS'],
      [`update delete ${zone} NS ns1.namefi.test.`, 'NS'],
    ];
    for (const [line, type] of cases) expect(await refused([line], key), line).toMatchObject({ status: 'REFUSED', ede: ['0', expect.stringContaining(`${type} records at ${zone} belong to the DNS provider`)] });
    // A CNAME beside other data breaks a zone rule.
    expect((await runUpdateTool('nsupdate', script(zone, [`update add both.${zone} 300 A 192.0.2.1`]), key)).code).toBe(0);
    expect(await refused([`update add both.${zone} 300 CNAME target.example.net.`], key)).toMatchObject({ status: 'REFUSED', ede: ['0', expect.stringContaining('CNAME')] });
    // A parked zone's apex addresses are parking's.
    const parked = 'parked-door.com';
    await service.services.ownership.mint({ name: parked, to: (await import('../../../test/support/client.ts')).addressOf(OWNER), chainId: 31337, years: 1, now: new Date() });
    const parkedKey = (await tsigKey(client, token, { zones: [parked] })).tsig;
    expect(await refused([`update delete ${parked} A`], parkedKey, parked)).toMatchObject({ status: 'REFUSED', ede: ['0', expect.stringContaining('belongs to parking')] });
  });

  it('ends a revoked key’s TSIG form at once (NOTAUTH/BADKEY), and lists the key as last used through rfc2136', async () => {
    const doomed = await tsigKey(client, token, { zones: [zone] });
    expect((await runUpdateTool('nsupdate', script(zone, [`update add doomed.${zone} 300 A 192.0.2.1`]), doomed.tsig)).code).toBe(0);
    const [stored] = await service.services.db.query<{ tsig_secret: string }>('SELECT tsig_secret FROM api_keys WHERE id = $1', [doomed.id]);
    expect(stored.tsig_secret).toMatch(/^v1:/);
    expect(stored.tsig_secret).not.toContain(doomed.tsig.secret);
    const listed = (await client.call('listApiKeys', { headers: client.withToken(token) })).body.find((k: { id: string }) => k.id === doomed.id);
    expect(listed).toMatchObject({ lastUsedVia: 'rfc2136', lastUsedAt: expect.any(String), tsig: { keyName: doomed.tsig.keyName, algorithm: 'hmac-sha256' } });
    expect((await client.call('revokeApiKey', { params: { id: doomed.id }, headers: client.withToken(token) })).status).toBe(200);
    expect((await runUpdateTool('nsupdate', script(zone, [`update delete doomed.${zone} A`]), doomed.tsig)).output).toContain('NOTAUTH(BADKEY)');
    expect(await short(`doomed.${zone}`, 'A')).toEqual(['192.0.2.1']);
  });
});

describe('keyed transfers and signed queries', () => {
  const zone = 'transfer-door.com';
  let whole: TsigForm;
  beforeAll(async () => {
    whole = await zoneWithKey(zone);
    expect((await runUpdateTool('nsupdate', script(zone, [`update add www.${zone} 300 A 192.0.2.1`]), whole)).code).toBe(0);
  });
  const axfr = (form: TsigForm | null) => dig(port, [...(form ? ['-y', `hmac-sha256:${form.keyName}:${form.secret}`] : []), zone, 'AXFR']);

  it('transfers the zone to a whole-zone key from its addresses, whatever DNS_AXFR_ALLOW says; refuses a narrower key, a far one and none', async () => {
    const text = await axfr(whole);
    expect(text).toMatch(new RegExp(`www\\.${zone.replace('.', '\\.')}\\.\\s+300\\s+IN\\s+A\\s+192\\.0\\.2\\.1`));
    expect(text).not.toMatch(/failed|tsig verify/i);
    // IXFR from the serial before the last change: the difference, signed.
    const serialNow = Number((await short(zone, 'SOA'))[0].split(' ')[2]);
    const ixfr = await dig(port, ['-y', `hmac-sha256:${whole.keyName}:${whole.secret}`, zone, `IXFR=${serialNow - 1}`]);
    expect(ixfr).toContain('192.0.2.1');
    expect(ixfr).not.toMatch(/failed|tsig verify/i);
    const reader = (await tsigKey(client, token, { zones: [zone], access: 'read' })).tsig;
    expect(await axfr(reader)).toContain('192.0.2.1');
    const narrow = (await tsigKey(client, token, { zones: [zone], names: ['www'] })).tsig;
    const far = (await tsigKey(client, token, { zones: [zone], cidrs: ['198.51.100.0/24'] })).tsig;
    for (const form of [narrow, far, null]) expect(await axfr(form)).toContain('Transfer failed');
  });

  it('signs its answers to ordinary queries signed with a key’s TSIG form, as certbot’s SOA look-ups need', async () => {
    const text = await dig(port, ['-y', `hmac-sha256:${whole.keyName}:${whole.secret}`, zone, 'SOA']);
    expect(text).toContain(';; TSIG PSEUDOSECTION:');
    expect(text).toMatch(/status: NOERROR.*\n.*flags: qr aa/);
    expect(text).toContain(`hostmaster.${zone}.`);
    expect(text).not.toMatch(/tsig verify failure|expected a TSIG/i);
  });
});
