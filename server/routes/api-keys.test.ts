import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';

const [KEY, OTHER_KEY] = TEST_KEYS;
const ZONE = 'key-owner.com';

let service: TestService;
let client: TestClient;
let token: string;
let otherToken: string;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
  await service.services.ownership.mint({ name: ZONE, to: addressOf(KEY), chainId: 31337, years: 1, now: new Date() });
  token = await client.signIn(KEY);
  otherToken = await client.signIn(OTHER_KEY);
});
afterAll(() => service.destroy());

const create = (label: string, t = token) => client.call('createApiKey', { body: { label }, headers: client.withToken(t) });

describe('API keys', () => {
  it('creates a key shown once, lists it by prefix only, and records its use', async () => {
    const created = await create('laptop');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ label: 'laptop', id: expect.any(String), createdAt: expect.any(String) });
    expect(created.body.key).toMatch(/^nfk_[A-Za-z0-9_-]{43}$/);

    const listed = await client.call('listApiKeys', { headers: client.withToken(token) });
    const entry = listed.body.find((k: { id: string }) => k.id === created.body.id);
    expect(entry).toEqual({ id: created.body.id, label: 'laptop', prefix: created.body.key.slice(0, 12), createdAt: created.body.createdAt, lastUsedAt: null, lastUsedVia: null, scope: null, tsig: null });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);

    // The key acts as its wallet, on a write too.
    const write = await client.call('createDnsRecord', { body: { zoneName: ZONE, type: 'TXT', name: 'api', rdata: '"hello"' }, headers: client.withApiKey(created.body.key) });
    expect(write.status).toBe(200);
    const after = await client.call('listApiKeys', { headers: client.withApiKey(created.body.key) });
    const used = after.body.find((k: { id: string }) => k.id === created.body.id);
    expect(used.lastUsedAt).toEqual(expect.any(String));
    expect(used.lastUsedVia).toBe('rest');
    // Through the MCP server (which names itself): the list says so.
    await client.call('listApiKeys', { headers: { ...client.withApiKey(created.body.key), 'x-namefi-client': 'mcp' } });
    const viaMcp = (await client.call('listApiKeys', { headers: client.withToken(token) })).body.find((k: { id: string }) => k.id === created.body.id);
    expect(viaMcp.lastUsedVia).toBe('mcp');
  });

  it('gives a scoped key a TSIG form on asking: its secret shown once, listed by name only; a key without a scope has none', async () => {
    const scope = { zones: [ZONE], names: ['_acme-challenge'], types: ['TXT'], access: 'write', expiresAt: null, cidrs: [] };
    const created = await client.call('createApiKey', { body: { label: 'certbot', scope, tsig: true }, headers: client.withToken(token) });
    expect(created.status).toBe(200);
    expect(created.body.tsig).toEqual({ keyName: `nfk-${created.body.id}.`, algorithm: 'hmac-sha256', secret: expect.any(String) });
    expect(Buffer.from(created.body.tsig.secret, 'base64')).toHaveLength(32);
    const listed = await client.call('listApiKeys', { headers: client.withToken(token) });
    expect(listed.body.find((k: { id: string }) => k.id === created.body.id).tsig).toEqual({ keyName: created.body.tsig.keyName, algorithm: 'hmac-sha256' });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.tsig.secret);

    const unscoped = await client.call('createApiKey', { body: { label: 'wide', tsig: true }, headers: client.withToken(token) });
    expect(unscoped.status).toBe(400);
    expect(JSON.stringify(unscoped.body)).toContain('tsig');
  });

  it('stores only a hash of the key', async () => {
    const created = await create('hash-check');
    const rows = await service.services.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [created.body.id]);
    expect(JSON.stringify(rows)).not.toContain(created.body.key.slice(12));
  });

  it('keeps other wallets out: their list, their revoke, their domains', async () => {
    const created = await create('mine');
    const theirs = await client.call('listApiKeys', { headers: client.withToken(otherToken) });
    expect(theirs.body.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
    const revoke = await client.call('revokeApiKey', { params: { id: created.body.id }, headers: client.withToken(otherToken) });
    expect(revoke.status).toBe(404);
    const otherKey = await create('other', otherToken);
    const write = await client.call('createDnsRecord', { body: { zoneName: ZONE, type: 'TXT', name: 'x', rdata: '"x"' }, headers: client.withApiKey(otherKey.body.key) });
    expect(write.status).toBe(403);
  });

  it('revokes a key: it disappears from the list and is refused with 401 afterwards', async () => {
    const created = await create('temporary');
    const key = created.body.key;
    expect((await client.call('listApiKeys', { headers: client.withApiKey(key) })).status).toBe(200);
    const revoked = await client.call('revokeApiKey', { params: { id: created.body.id }, headers: client.withToken(token) });
    expect(revoked).toMatchObject({ status: 200, body: { success: true } });
    const listed = await client.call('listApiKeys', { headers: client.withToken(token) });
    expect(listed.body.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
    const reuse = await client.call('listApiKeys', { headers: client.withApiKey(key) });
    expect(reuse.status).toBe(401);
    expect(reuse.body.message).toMatch(/revoked/);
    expect((await client.call('revokeApiKey', { params: { id: created.body.id }, headers: client.withToken(token) })).status).toBe(404);
  });

  it('answers 404 for an unknown id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await client.call('revokeApiKey', { params: { id }, headers: client.withToken(token) })).status).toBe(404);
    }
  });

  it('refuses malformed and unknown keys with a message saying which', async () => {
    const malformed = await client.call('listApiKeys', { headers: client.withApiKey('nfk_tooshort') });
    expect(malformed.status).toBe(401);
    expect(malformed.body.message).toMatch(/malformed/);
    const unknown = await client.call('listApiKeys', { headers: client.withApiKey(`nfk_${'A'.repeat(43)}`) });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toMatch(/not known/);
  });

  it('needs a credential and a label', async () => {
    expect((await client.call('createApiKey', { body: { label: 'x' } })).status).toBe(401);
    const empty = await create('   ');
    expect(empty.status).toBe(400);
    expect(empty.body.data.fieldErrors.label).toBeDefined();
  });
});
