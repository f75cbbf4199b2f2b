import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import { startTestService, type TestService } from '../../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../../test/support/client.ts';
import { DYNDNS_CHANGES_PER_HOUR } from './update.ts';

/*
 * DynDNS2 at /nic/update (contract: The standard doors), every answer of the protocol as its clients see it, against
 * the real service: what each writes (the records, one history entry) and what it leaves alone.
 */

const [OWNER, STRANGER] = TEST_KEYS;
const ZONE = 'dyn-home.com';
const THEIRS = 'not-mine.com';

let service: TestService;
let client: TestClient;
let token: string;
const logged: string[] = [];

const homeScope = (names: string[], access: 'read' | 'write' = 'write'): ApiKeyScope => ({ zones: [ZONE], names, types: ['A', 'AAAA'], access, expiresAt: null, cidrs: [] });

beforeAll(async () => {
  // The request log on, to see what it writes; 10.9.9.9 stands for a proxy in front of the service.
  service = await startTestService({ LOG_REQUESTS: 'true', TRUSTED_PROXIES: '127.0.0.1' });
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')));
  client = testClient(service);
  const now = new Date();
  await service.services.ownership.mint({ name: ZONE, to: addressOf(OWNER), chainId: 31337, years: 1, now });
  await service.services.ownership.mint({ name: THEIRS, to: addressOf(STRANGER), chainId: 31337, years: 1, now });
  token = await client.signIn(OWNER);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await service.destroy();
});

interface Key {
  id: string;
  key: string;
}

async function makeKey(label: string, scope?: ApiKeyScope): Promise<Key> {
  const made = await client.call('createApiKey', { body: { label, ...(scope ? { scope } : {}) }, headers: client.withToken(token) });
  expect(made.status).toBe(200);
  return { id: made.body.id, key: made.body.key };
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function nicUpdate(query: Record<string, string>, authorization?: string, headers: Record<string, string> = {}) {
  const url = new URL('/nic/update', service.origin);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const response = await fetch(url, { headers: { ...(authorization ? { authorization } : {}), 'user-agent': 'test/1.0', ...headers } });
  return { status: response.status, text: await response.text(), headers: response.headers };
}
const asKey = (key: Key) => basic(key.id, key.key);

async function addressesAt(name: string): Promise<string[]> {
  const records = (await client.call('getDnsRecords', { query: { zoneName: ZONE } })).body as Array<{ name: string; type: string; rdata: string }>;
  return records.filter((r) => r.name === name && (r.type === 'A' || r.type === 'AAAA')).map((r) => `${r.type} ${r.rdata}`).sort();
}

async function history() {
  return (await client.call('getZoneHistory', { query: { zoneName: ZONE, limit: 200 }, headers: client.withToken(token) })).body.entries as Array<{ operation: string; serial: number; actor: Record<string, unknown>; changes: unknown[] }>;
}

describe('DynDNS2 /nic/update', () => {
  it('sets a hostname’s address (good), then says nochg without a new serial or entry, and replaces the RRset on a new address', async () => {
    const key = await makeKey('home router', homeScope(['home']));
    const first = await nicUpdate({ hostname: `home.${ZONE}`, myip: '203.0.113.5' }, asKey(key));
    expect(first).toMatchObject({ status: 200, text: 'good 203.0.113.5\n' });
    expect(first.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await addressesAt('home')).toEqual(['A 203.0.113.5']);
    const [entry] = await history();
    expect(entry).toMatchObject({ operation: 'dynDnsUpdate', actor: { via: 'api-key', apiKeyId: key.id, client: 'dyndns2' } });
    expect(entry.changes).toHaveLength(1);

    const again = await nicUpdate({ hostname: `home.${ZONE}`, myip: '203.0.113.5' }, asKey(key));
    expect(again.text).toBe('nochg 203.0.113.5\n');
    const [latest] = await history();
    expect(latest.serial).toBe(entry.serial);

    const moved = await nicUpdate({ hostname: `home.${ZONE}`, myip: '198.51.100.7' }, asKey(key));
    expect(moved.text).toBe('good 198.51.100.7\n');
    expect(await addressesAt('home')).toEqual(['A 198.51.100.7']);

    // The key list says when and through which door the key was last used.
    const keys = (await client.call('listApiKeys', { headers: client.withToken(token) })).body as Array<{ id: string; lastUsedVia: string | null; lastUsedAt: string | null }>;
    expect(keys.find((k) => k.id === key.id)).toMatchObject({ lastUsedVia: 'dyndns2', lastUsedAt: expect.any(String) });
  });

  it('sets IPv4 and IPv6 in one change, replacing a round-robin A RRset with the one address', async () => {
    const key = await makeKey('dual stack', homeScope(['nas']));
    for (const rdata of ['192.0.2.1', '192.0.2.2']) {
      const made = await client.call('createDnsRecord', { body: { zoneName: ZONE, name: 'nas', type: 'A', rdata, ttl: 300 }, headers: client.withApiKey((await makeKey(`writer ${rdata}`)).key) });
      expect(made.status).toBe(200);
    }
    const before = (await history()).length;
    const answer = await nicUpdate({ hostname: `nas.${ZONE}`, myip: '192.0.2.9,2001:DB8:0:0::0:1' }, asKey(key));
    expect(answer.text).toBe('good 192.0.2.9,2001:db8::1\n');
    expect(await addressesAt('nas')).toEqual(['A 192.0.2.9', 'AAAA 2001:db8::1']);
    const entries = await history();
    expect(entries.length).toBe(before + 1);
    expect(entries[0].operation).toBe('dynDnsUpdate');
  });

  it('sets the sender’s address without myip, believing X-Forwarded-For only from a trusted proxy', async () => {
    const key = await makeKey('no myip', homeScope(['here']));
    expect((await nicUpdate({ hostname: `here.${ZONE}` }, asKey(key))).text).toBe('good 127.0.0.1\n');
    // 127.0.0.1 is TRUSTED_PROXIES here: the address it forwards for is the sender's.
    expect((await nicUpdate({ hostname: `here.${ZONE}`, myip: '' }, asKey(key), { 'x-forwarded-for': '2001:db8::77' })).text).toBe('good 2001:db8::77\n');
    expect(await addressesAt('here')).toEqual(['A 127.0.0.1', 'AAAA 2001:db8::77']);
  });

  it('answers one line per hostname, in order: good, nohost (outside the key, not here, another wallet’s), notfqdn', async () => {
    const key = await makeKey('several', homeScope(['a', 'b']));
    const answer = await nicUpdate({ hostname: `a.${ZONE},www.${ZONE},x.nowhere-here.org,x.${THEIRS},b,B.${ZONE}.`, myip: '203.0.113.9' }, asKey(key));
    expect(answer.text).toBe(['good 203.0.113.9', 'nohost', 'nohost', 'nohost', 'notfqdn', 'good 203.0.113.9', ''].join('\n'));
    expect(await addressesAt('www')).toEqual([]);
    // A key for every zone of its wallet still cannot reach another wallet's zone.
    const everything = await makeKey('unlimited');
    expect((await nicUpdate({ hostname: `x.${THEIRS}`, myip: '203.0.113.9' }, asKey(everything))).text).toBe('nohost\n');
    // A read-only key writes nothing.
    const reader = await makeKey('reader', homeScope(['a'], 'read'));
    expect((await nicUpdate({ hostname: `a.${ZONE}`, myip: '203.0.113.10' }, asKey(reader))).text).toBe('nohost\n');
    expect(await addressesAt('a')).toEqual(['A 203.0.113.9']);
  });

  it('answers notfqdn once when no hostname is given', async () => {
    const key = await makeKey('none', homeScope(['a']));
    expect((await nicUpdate({ myip: '203.0.113.1' }, asKey(key))).text).toBe('notfqdn\n');
  });

  /** The key with one character of its secret changed (mid-way: a last character may carry only padding bits). */
  const wrongSecret = (secret: string) => {
    const at = secret.length - 8;
    return `${secret.slice(0, at)}${secret[at] === 'x' ? 'y' : 'x'}${secret.slice(at + 1)}`;
  };

  it('answers badauth (401, asking for Basic auth) for a missing, wrong, revoked or mismatched key, and writes nothing', async () => {
    const key = await makeKey('auth', homeScope(['auth']));
    const other = await makeKey('other', homeScope(['auth']));
    const revoked = await makeKey('revoked', homeScope(['auth']));
    await client.call('revokeApiKey', { params: { id: revoked.id }, headers: client.withToken(token) });
    const cases = [undefined, 'Bearer x', basic(key.id, wrongSecret(key.key)), basic(other.id, key.key), asKey(revoked), basic(key.id, 'not-a-key'), 'Basic !!!'];
    for (const authorization of cases) {
      const answer = await nicUpdate({ hostname: `auth.${ZONE}`, myip: '203.0.113.2' }, authorization);
      expect(answer).toMatchObject({ status: 401, text: 'badauth\n' });
      expect(answer.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    }
    // An expired key, and one used from outside its address ranges.
    const expiring = await makeKey('expiring', { ...homeScope(['auth']), expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await service.services.db.query("UPDATE api_keys SET scope = jsonb_set(scope, '{expiresAt}', to_jsonb($2::text)) WHERE id = $1", [expiring.id, new Date(Date.now() - 1000).toISOString()]);
    const elsewhere = await makeKey('elsewhere', { ...homeScope(['auth']), cidrs: ['192.0.2.0/24'] });
    for (const k of [expiring, elsewhere]) expect((await nicUpdate({ hostname: `auth.${ZONE}`, myip: '203.0.113.2' }, asKey(k))).status).toBe(401);
    expect(await addressesAt('auth')).toEqual([]);
  });

  it('answers a myip that is not an address with badagent, once, and writes nothing', async () => {
    const key = await makeKey('bad myip', homeScope(['bad']));
    for (const myip of ['example.com', '203.0.113.300', '192.0.2.0/24', '192.0.2.1,192.0.2.2', '2001:db8::1,2001:db8::2', '1.2.3.4,2001:db8::1,5.6.7.8', 'fe80::1%eth0']) {
      expect((await nicUpdate({ hostname: `bad.${ZONE},bad.${ZONE}`, myip }, asKey(key))).text).toBe('badagent\n');
    }
    expect(await addressesAt('bad')).toEqual([]);
  });

  it('answers dnserr where the zone rules refuse an address (a CNAME at the name), writing nothing', async () => {
    const writer = await makeKey('writer');
    await client.call('createDnsRecord', { body: { zoneName: ZONE, name: 'alias', type: 'CNAME', rdata: `home.${ZONE}.` }, headers: client.withApiKey(writer.key) });
    const key = await makeKey('cname', homeScope(['alias']));
    expect((await nicUpdate({ hostname: `alias.${ZONE}`, myip: '203.0.113.3' }, asKey(key))).text).toBe('dnserr\n');
    expect(await addressesAt('alias')).toEqual([]);
  });

  it(`answers abuse past ${DYNDNS_CHANGES_PER_HOUR} changes in an hour for the key, and writes nothing more`, async () => {
    const key = await makeKey('flapping', homeScope(['flap']));
    for (let i = 0; i < DYNDNS_CHANGES_PER_HOUR; i += 1) {
      expect((await nicUpdate({ hostname: `flap.${ZONE}`, myip: `10.0.${i >> 8}.${i & 255}` }, asKey(key))).text).toMatch(/^good /);
    }
    const before = (await history())[0].serial;
    expect((await nicUpdate({ hostname: `flap.${ZONE}`, myip: '10.1.0.1' }, asKey(key))).text).toBe('abuse\n');
    expect(await addressesAt('flap')).toEqual([`A 10.0.0.${DYNDNS_CHANGES_PER_HOUR - 1}`]);
    expect((await history())[0].serial).toBe(before);
    // Another key of the same wallet is not held back by this one's count.
    const fresh = await makeKey('fresh', homeScope(['flap']));
    expect((await nicUpdate({ hostname: `flap.${ZONE}`, myip: '10.1.0.1' }, asKey(fresh))).text).toBe('good 10.1.0.1\n');
  });

  it('tells the dashboard where the door opens, and that this service answers no DNS (no DNS_PORT)', async () => {
    expect((await client.call('getServiceDoors')).body).toEqual({ dns: null, dynDns: { path: '/nic/update' } });
  });

  it('never writes the key, the hostname or the address into the request log', async () => {
    const key = await makeKey('log check', homeScope(['log']));
    await nicUpdate({ hostname: `log.${ZONE}`, myip: '203.0.113.77' }, asKey(key));
    const lines = logged.filter((line) => line.includes('/nic/update'));
    expect(lines.length).toBeGreaterThan(0);
    const everything = logged.join('\n');
    for (const secret of [key.key, Buffer.from(`${key.id}:${key.key}`).toString('base64'), '203.0.113.77', `log.${ZONE}`]) expect(everything).not.toContain(secret);
  });
});
