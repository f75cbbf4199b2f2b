import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { bindToolsMissing, dig } from '../../test/support/bind.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

const [OWNER_KEY, OTHER_KEY] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let landing: Server;
let landingOrigin: string;
let count = 0;

beforeAll(async () => {
  service = await startTestService({ FORWARD_PORT: '0', DNS_PORT: '0', FORWARD_ADDRESSES: '127.0.0.1,::1' });
  client = testClient(service);
  // The site a domain forwards to: answers what it was asked for, so a followed redirect shows where it landed.
  landing = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`landed on ${req.url}`));
  await new Promise<void>((ready) => landing.listen(0, '127.0.0.1', ready));
  landingOrigin = `http://127.0.0.1:${(landing.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((done) => landing.close(() => done()));
  await service.destroy();
});

async function domain(owner: Hex = OWNER_KEY) {
  const name = `fwd${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(owner), chainId: 31337, years: 1, now: new Date() });
  return name;
}
const setForwarding = (payload: Record<string, unknown>, key: Hex = OWNER_KEY) => client.signed(key, 'setForwarding', payload);
const forward = (name: string, targetUrl: string, more: Partial<{ statusCode: number; keepPath: boolean; enabled: boolean; targetUrl: string }> = {}) =>
  setForwarding({ normalizedDomainName: name, enabled: true, targetUrl, statusCode: 308, keepPath: true, ...more });
const getForwarding = async (name: string) => (await client.call('getForwarding', { query: { normalizedDomainName: name } })).body;
const records = async (zoneName: string) =>
  ((await client.call('getDnsRecords', { query: { zoneName } })).body as Array<{ name: string; type: string; rdata: string; metadata: any }>).map(
    (r) => `${r.metadata?.managedBy ?? 'stored'} ${r.name} ${r.type} ${r.rdata}`,
  );

/** A plain HTTP GET as a browser sends it to `url`, whatever host it names, reaching `via` (host:port) instead. */
function get(url: string, via?: string): Promise<{ status: number; location: string | null; body: string }> {
  const target = new URL(url);
  const [hostname, port] = via ? via.split(':') : [target.hostname, target.port];
  return new Promise((done, fail) => {
    const req = request({ hostname, port: Number(port), path: `${target.pathname}${target.search}`, headers: { host: target.host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.once('end', () => done({ status: res.statusCode ?? 0, location: res.headers.location ?? null, body }));
    });
    req.once('error', fail);
    req.end();
  });
}
const forwarderAt = () => `127.0.0.1:${service.forwarder!.port}`;

describe('forwarding', () => {
  it('a domain never forwarded answers the defaults; an unknown one is a 404', async () => {
    const name = await domain();
    expect(await getForwarding(name)).toEqual({ normalizedDomainName: name, enabled: false, targetUrl: '', statusCode: 301, keepPath: true });
    expect((await client.call('getForwarding', { query: { normalizedDomainName: 'nobody-has-this.com' } })).status).toBe(404);
  });

  it('enabling stores the setting, unparks in the same change and puts the forwarder at the apex, read-only', async () => {
    const name = await domain();
    expect((await records(name))[0]).toMatch(/^parking @ A/);
    const reply = await forward(name, `${landingOrigin}/new`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({ normalizedDomainName: name, enabled: true, targetUrl: `${landingOrigin}/new`, statusCode: 308, keepPath: true });
    expect(await getForwarding(name)).toEqual(reply.body);
    expect((await client.call('isDomainParked', { query: { normalizedDomainName: name } })).body).toEqual({ parked: false });
    expect(await records(name)).toEqual(['forwarding @ A 127.0.0.1', 'forwarding @ AAAA ::1']);

    const zone = (await client.call('getDnsRecords', { query: { zoneName: name } })).body as Array<{ id: string }>;
    const edit = await client.signed(OWNER_KEY, 'deleteDnsRecord', { id: zone[0].id, zoneName: name });
    expect(edit.status).toBe(400);
    expect(edit.body.data.rule).toBe('DNS_MANAGED_RECORD');
    const own = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: name, name: '@', type: 'A', rdata: '192.0.2.7', ttl: 300 });
    expect(own.status).toBe(400);
    expect(own.body.data.rule).toBe('DNS_PARKING_CONFLICT');
    expect(own.body.message + JSON.stringify(own.body.data)).toMatch(/forwarded/);
  });

  it('the forwarder answers the apex and www with the status and Location, path and query kept; following it lands on the target', async () => {
    const name = await domain();
    await forward(name, `${landingOrigin}/new/`);
    const first = await get(`http://${name}/a/b?c=1&d=2`, forwarderAt());
    expect(first).toMatchObject({ status: 308, location: `${landingOrigin}/new/a/b?c=1&d=2` });
    const followed = await get(first.location!);
    expect(followed).toMatchObject({ status: 200, body: 'landed on /new/a/b?c=1&d=2' });
    expect(await get(`http://www.${name}/x`, forwarderAt())).toMatchObject({ status: 308, location: `${landingOrigin}/new/x` });
    expect(await get(`http://shop.${name}/x`, forwarderAt())).toMatchObject({ status: 404, location: null });
  });

  it('without keepPath every path goes to the target itself, with the chosen status', async () => {
    const name = await domain();
    await forward(name, `${landingOrigin}/only`, { keepPath: false, statusCode: 302 });
    expect(await get(`http://${name}/deep/path?q=1`, forwarderAt())).toMatchObject({ status: 302, location: `${landingOrigin}/only` });
  });

  it("the owner's domain list says which domains forward, with each zone's record count and registration date", async () => {
    const name = await domain();
    await forward(name, `${landingOrigin}/list`);
    const token = await client.signIn(OWNER_KEY);
    const listed = (await client.call('getUserDomains', { headers: client.withToken(token) })).body.find((d: { normalizedDomainName: string }) => d.normalizedDomainName === name);
    expect(listed.dnsStatus).toEqual({ isParkingEnabled: false, hasWebRecords: true, hasMxRecords: false, isForwardingEnabled: true, isDnssecEnabled: false });
    expect(listed.recordCount).toBe(0);
    expect(Date.parse(listed.registeredAt)).toBeLessThanOrEqual(Date.now());
  });

  it('tryForwarding asks the forwarder and answers its redirect; a path that would leave the forwarder is refused', async () => {
    const name = await domain();
    await forward(name, `${landingOrigin}/t`, { statusCode: 307 });
    const trial = await client.call('tryForwarding', { query: { normalizedDomainName: name, path: '/p?q=1' } });
    expect(trial.body).toEqual({ url: `http://${name}/p?q=1`, host: name, status: 307, location: `${landingOrigin}/t/p?q=1` });
    const escape = await client.call('tryForwarding', { query: { normalizedDomainName: name, path: '//evil.example/' } });
    expect(escape.status).toBe(400);
    expect(escape.body.data.fieldErrors.path).toBeDefined();
  });

  it('parking turns forwarding off in the same change, and the forwarder stops answering', async () => {
    const name = await domain();
    await forward(name, `${landingOrigin}/p`);
    const parked = await client.signed(OWNER_KEY, 'parkDomain', { normalizedDomainName: name, overrideExistingRecords: false });
    expect(parked.body).toEqual({ success: true });
    expect(await getForwarding(name)).toMatchObject({ enabled: false, targetUrl: `${landingOrigin}/p` });
    expect((await records(name)).every((r) => r.startsWith('parking '))).toBe(true);
    expect((await get(`http://${name}/`, forwarderAt())).status).toBe(404);
  });

  it('disabling keeps the target for next time and gives the apex back', async () => {
    const name = await domain();
    await forward(name, `${landingOrigin}/k`);
    const off = await setForwarding({ normalizedDomainName: name, enabled: false, targetUrl: `${landingOrigin}/k`, statusCode: 308, keepPath: true });
    expect(off.body).toMatchObject({ enabled: false, targetUrl: `${landingOrigin}/k` });
    expect(await records(name)).toEqual([]);
  });

  it('refuses a loop, a target that is not an http(s) URL, an unknown status, and names the field', async () => {
    const name = await domain();
    for (const [payload, field] of [
      [{ targetUrl: `https://${name}/elsewhere` }, 'targetUrl'],
      [{ targetUrl: `http://WWW.${name}.` }, 'targetUrl'],
      [{ targetUrl: 'ftp://example.org/' }, 'targetUrl'],
      [{ targetUrl: `https://example.org/${'a'.repeat(2048)}` }, 'targetUrl'],
      [{ statusCode: 303 }, 'statusCode'],
    ] as const) {
      const reply = await forward(name, 'https://example.org/', payload);
      expect(reply.status, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(reply.body.data.fieldErrors)).toContain(field);
    }
    expect((await getForwarding(name)).enabled).toBe(false);
  });

  it('only the owner may set it; a signature over other values is refused', async () => {
    const name = await domain();
    expect((await forward(name, 'https://example.org/', {})).status).toBe(200);
    const stranger = await setForwarding({ normalizedDomainName: name, enabled: false, targetUrl: '', statusCode: 301, keepPath: true }, OTHER_KEY);
    expect(stranger.status).toBe(403);
    // A relay that drops a signed field (here keepPath) is refused, naming it, and changes nothing.
    const missing = await client.signed(OWNER_KEY, 'setForwarding', { normalizedDomainName: name, enabled: true, targetUrl: 'https://example.org/', statusCode: 301, keepPath: false }, {
      tamper: (envelope) => ({ ...envelope, payload: { ...envelope.payload, keepPath: undefined } }),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.data).toMatchObject({ rule: 'MISSING_SIGNED_FIELD', fieldErrors: { keepPath: expect.any(Array) } });
    expect((await getForwarding(name)).enabled).toBe(true);
  });

  it("an API key of the owner's sets it with the plain payload; a SIWE token alone does not", async () => {
    const name = await domain();
    const token = await client.signIn(OWNER_KEY);
    const payload = { normalizedDomainName: name, enabled: true, targetUrl: 'https://example.org/key', statusCode: 307, keepPath: false };
    expect((await client.call('setForwarding', { body: payload, headers: client.withToken(token) })).status).toBe(401);
    const key = (await client.call('createApiKey', { body: { label: 'forwarding' }, headers: client.withToken(token) })).body.key as string;
    const reply = await client.call('setForwarding', { body: payload, headers: client.withApiKey(key) });
    expect(reply.status).toBe(200);
    expect(await getForwarding(name)).toEqual(payload);
  });

  it.runIf(bindToolsMissing() === null)('the DNS server answers the forwarder at the apex (dig)', async () => {
    const name = await domain();
    await forward(name, 'https://example.org/');
    const answer = await dig(service.dns!.port, ['+norec', '+short', name, 'A']);
    expect(answer.trim()).toBe('127.0.0.1');
  });
});
