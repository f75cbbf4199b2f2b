import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { verifyHistoryEntry } from '#core/eip712/verify-history-entry.ts';
import { historyEntry } from '#core/wire/history.ts';
import { addressOf, TEST_KEYS, testClient, type Reply, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { recordTransfer } from '../zones/transfers.ts';

/**
 * Access (contract: Access), through the real service: grants to other wallets and scoped API keys, enforced in the
 * pipeline's one authorisation place and on the read paths, each refusal a 403 naming why and writing nothing.
 */

const [OWNER, OTHER, HELPER] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let count = 0;
const inDays = (days: number) => Math.floor(Date.now() / 1000) + days * 86400;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

async function domain(): Promise<string> {
  const name = `access${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(OWNER), chainId: 31337, years: 1, now: new Date() });
  return name;
}
const ok = (reply: Reply) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const refused = (reply: Reply, status: number, message: RegExp) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.message).toMatch(message);
};
const record = (zoneName: string, name: string, type = 'A', rdata = '192.0.2.1') => ({ zoneName, name, type, rdata: type === 'TXT' ? `"${rdata}"` : type === 'MX' ? `10 mail.${zoneName}.` : rdata, ttl: 300 });
const grant = (zoneName: string, over: Record<string, unknown> = {}) => ({ zoneName, grantee: addressOf(HELPER), role: 'editor', names: ['www'], types: ['A'], expiresAt: inDays(7), ...over });
const serialOf = async (zoneName: string) => Number((await service.services.db.query<{ zone_serial: string }>('SELECT zone_serial FROM domains WHERE name = $1', [zoneName]))[0].zone_serial);
const session = async (key: Hex) => client.withToken(await client.signIn(key));

describe('grants', () => {
  it('an editor limited to www A: writes there, is refused elsewhere, and the entry proves who allowed it', async () => {
    const zoneName = await domain();
    const ownerRecord = ok(await client.signed(OWNER, 'createDnsRecord', record(zoneName, 'mail', 'A', '192.0.2.50'))).id;
    // Only the owner grants; a key never does, nor a grantee.
    refused(await client.signed(OTHER, 'grantZoneAccess', grant(zoneName)), 403, /does not own/);
    const granted = ok(await client.signed(OWNER, 'grantZoneAccess', grant(zoneName)));
    expect(granted).toMatchObject({ zoneName, grantee: addressOf(HELPER).toLowerCase(), role: 'editor', names: ['www'], types: ['A'], revokedAt: null, grantedBy: addressOf(OWNER).toLowerCase() });
    expect(granted.signed.primaryType).toBe('GrantZoneAccessEnvelope');
    refused(await client.signed(OWNER, 'grantZoneAccess', grant(zoneName)), 409, /already holds a live editor grant/);
    refused(await client.signed(HELPER, 'grantZoneAccess', grant(zoneName, { grantee: addressOf(OTHER) })), 403, /only the owner/);

    const shared = ok(await client.call('getSharedDomains', { headers: await session(HELPER) }));
    expect(shared).toEqual([{ normalizedDomainName: zoneName, role: 'editor', names: ['www'], types: ['A'], expiresAt: granted.expiresAt, grantedBy: addressOf(OWNER).toLowerCase() }]);

    const before = await serialOf(zoneName);
    const made = ok(await client.signed(HELPER, 'createDnsRecord', record(zoneName, 'www')));
    expect(await serialOf(zoneName)).toBe(before + 1);
    ok(await client.signed(HELPER, 'updateDnsRecord', { ...record(zoneName, 'www', 'A', '192.0.2.2'), id: made.id }));
    // Out of scope, each a 403 naming why, nothing written.
    refused(await client.signed(HELPER, 'createDnsRecord', record(zoneName, 'www', 'MX')), 403, /Out of scope: your editor grant covers A under www only; this change touches MX at www/);
    refused(await client.signed(HELPER, 'createDnsRecord', record(zoneName, 'api')), 403, /touches A at api/);
    refused(await client.signed(HELPER, 'updateDnsRecord', { ...record(zoneName, 'www', 'A', '192.0.2.3'), id: ownerRecord }), 403, /touches A at mail/);
    refused(await client.signed(HELPER, 'deleteDnsRecord', { zoneName, id: ownerRecord }), 403, /touches A at mail/);
    refused(await client.signed(HELPER, 'batchCreateDnsRecords', { zoneName, records: [{ name: 'www', type: 'A', rdata: '192.0.2.4', ttl: 300 }, { name: 'x', type: 'A', rdata: '192.0.2.5', ttl: 300 }] }), 403, /touches A at x/);
    refused(await client.signed(HELPER, 'toggleDnssec', { normalizedDomainName: zoneName, enabled: true }), 403, /this needs the manager role/);
    refused(await client.signed(HELPER, 'setAutoRenew', { normalizedDomainName: zoneName, enabled: true, durationInYears: 1 }), 403, /does not own/);
    expect(await serialOf(zoneName)).toBe(before + 2);

    // The grantee reads the history; the entry carries the grant, and verifies offline.
    const history = ok(await client.call('getZoneHistory', { query: { zoneName }, headers: await session(HELPER) }));
    const entry = historyEntry.parse(history.entries[0]);
    expect(entry.actor).toMatchObject({ wallet: addressOf(HELPER).toLowerCase(), via: 'eip712', grant: { id: granted.id, role: 'editor' } });
    const verified = await verifyHistoryEntry(entry);
    expect(verified.status, JSON.stringify(verified)).toBe('valid');
    expect(verified.status === 'valid' ? verified.checked.join('\n') : '').toMatch(/signed by the owner's key/);
    // An entry whose change was moved outside the grant does not verify.
    const tampered = structuredClone(entry);
    tampered.actor.grant!.signed.envelope = { ...tampered.actor.grant!.signed.envelope, payload: { ...(tampered.actor.grant!.signed.envelope.payload as object), names: ['api'] } };
    expect((await verifyHistoryEntry(tampered)).status).toBe('invalid');
    // Granting was an entry of its own that left the serial as it was.
    const grantEntry = history.entries.find((e: { operation: string }) => e.operation === 'grantZoneAccess');
    expect(grantEntry.access).toMatchObject({ action: 'grant', grantId: granted.id, role: 'editor' });
    expect((await verifyHistoryEntry(historyEntry.parse(grantEntry))).status).toBe('valid');

    // A stranger reads neither the history nor the grants; the owner sees every grant, the grantee their own.
    refused(await client.call('getZoneHistory', { query: { zoneName }, headers: await session(OTHER) }), 403, /does not own/);
    refused(await client.call('listZoneAccess', { query: { zoneName }, headers: await session(OTHER) }), 403, /neither owns/);
    expect(ok(await client.call('listZoneAccess', { query: { zoneName }, headers: await session(OWNER) }))).toHaveLength(1);
    expect(ok(await client.call('listZoneAccess', { query: { zoneName }, headers: await session(HELPER) }))).toHaveLength(1);

    // Revoked: the next write is refused, saying so; the serial stays.
    ok(await client.signed(OWNER, 'revokeZoneAccess', { zoneName, grantId: granted.id }));
    const serial = await serialOf(zoneName);
    refused(await client.signed(HELPER, 'createDnsRecord', record(zoneName, 'www', 'A', '192.0.2.9')), 403, /was revoked by the owner/);
    refused(await client.call('getZoneHistory', { query: { zoneName }, headers: await session(HELPER) }), 403, /was revoked/);
    expect(ok(await client.call('getSharedDomains', { headers: await session(HELPER) })).filter((d: { normalizedDomainName: string }) => d.normalizedDomainName === zoneName)).toEqual([]);
    expect(await serialOf(zoneName)).toBe(serial);
  });

  it('a viewer reads history and analytics and writes nothing; a manager sets parking; the grantee may give a grant up', async () => {
    const zoneName = await domain();
    const viewer = ok(await client.signed(OWNER, 'grantZoneAccess', grant(zoneName, { role: 'viewer', names: [], types: [] })));
    const headers = await session(HELPER);
    ok(await client.call('getZoneHistory', { query: { zoneName }, headers }));
    ok(await client.call('getZoneAnalytics', { query: { zoneName }, headers }));
    refused(await client.signed(HELPER, 'createDnsRecord', record(zoneName, 'www')), 403, /viewer grant .* this needs the editor role/);
    ok(await client.signed(HELPER, 'revokeZoneAccess', { zoneName, grantId: viewer.id }));
    const [gone] = ok(await client.call('listZoneAccess', { query: { zoneName }, headers: await session(OWNER) }));
    expect(gone.revokedAt).not.toBeNull();

    ok(await client.signed(OWNER, 'grantZoneAccess', grant(zoneName, { role: 'manager', names: [], types: [] })));
    ok(await client.signed(HELPER, 'toggleDomainParking', { normalizedDomainName: zoneName, enableParking: false, overrideExistingRecords: false }));
    ok(await client.signed(HELPER, 'createDnsRecord', record(zoneName, '@', 'MX')));
    // Never the owner's own: auto-renew, grants.
    refused(await client.signed(HELPER, 'setAutoRenew', { normalizedDomainName: zoneName, enabled: true, durationInYears: 1 }), 403, /does not own/);
    refused(await client.signed(HELPER, 'grantZoneAccess', grant(zoneName, { grantee: addressOf(OTHER) })), 403, /only the owner/);
  });

  it('a manager limited to names cannot change the whole zone\u2019s settings', async () => {
    const zoneName = await domain();
    ok(await client.signed(OWNER, 'grantZoneAccess', grant(zoneName, { role: 'manager', names: ['www'], types: [] })));
    refused(await client.signed(HELPER, 'toggleDnssec', { normalizedDomainName: zoneName, enabled: true }), 403, /sets dnssec .* needs every type at the apex/);
  });

  it('refuses a grant that ends in the past or after the domain; an expired grant is refused naming its expiry', async () => {
    const zoneName = await domain();
    refused(await client.signed(OWNER, 'grantZoneAccess', grant(zoneName, { expiresAt: inDays(-1) })), 400, /Invalid|invalid|future/);
    refused(await client.signed(OWNER, 'grantZoneAccess', grant(zoneName, { expiresAt: inDays(800) })), 400, /Invalid|invalid|no later/);
    const granted = ok(await client.signed(OWNER, 'grantZoneAccess', grant(zoneName)));
    await service.services.db.query("UPDATE zone_grants SET expires_at = now() - interval '1 minute' WHERE id = $1", [granted.id]);
    refused(await client.signed(HELPER, 'createDnsRecord', record(zoneName, 'www')), 403, /grant for .* expired on/);
  });

  it('a grant is void once the domain moves to another holder, and stays void if it comes back', async () => {
    const zoneName = await domain();
    ok(await client.signed(OWNER, 'grantZoneAccess', grant(zoneName)));
    ok(await client.signed(HELPER, 'createDnsRecord', record(zoneName, 'www')));
    const [from, to] = [addressOf(OWNER).toLowerCase(), addressOf(OTHER).toLowerCase()];
    await recordTransfer(service.services, { chainId: 31337, zoneName, from, to, sender: from, txHash: `0x${'cd'.repeat(32)}`, logIndex: 0, blockNumber: 7 });
    refused(await client.signed(HELPER, 'createDnsRecord', record(zoneName, 'www', 'A', '192.0.2.7')), 403, /revoked when .* moved to another holder/);
    await recordTransfer(service.services, { chainId: 31337, zoneName, from: to, to: from, sender: to, txHash: `0x${'ce'.repeat(32)}`, logIndex: 0, blockNumber: 8 });
    refused(await client.signed(HELPER, 'createDnsRecord', record(zoneName, 'www', 'A', '192.0.2.8')), 403, /revoked/);
    expect(ok(await client.call('getSharedDomains', { headers: await session(HELPER) })).filter((d: { normalizedDomainName: string }) => d.normalizedDomainName === zoneName)).toEqual([]);
  });

  it('a grant whose grantor no longer owns the domain does not act, even before anything revoked it', async () => {
    const zoneName = await domain();
    ok(await client.signed(OWNER, 'grantZoneAccess', grant(zoneName)));
    // The registry moved without the follower's entry (a chain the service has not read yet, say).
    await service.services.db.query('UPDATE domains SET owner_address = $2 WHERE name = $1', [zoneName, addressOf(OTHER).toLowerCase()]);
    refused(await client.signed(HELPER, 'createDnsRecord', record(zoneName, 'www')), 403, /no longer owns it/);
  });

  it('a grant acts only through the grantee\u2019s own signature: the grantee\u2019s API keys, scoped or not, are refused on the zone', async () => {
    const zoneName = await domain();
    const granted = ok(await client.signed(OWNER, 'grantZoneAccess', grant(zoneName)));
    const helper = await session(HELPER);
    const unlimited = client.withApiKey(ok(await client.call('createApiKey', { body: { label: 'mine' }, headers: helper })).key);
    const scope = { zones: [zoneName], names: ['www'], types: ['A'], access: 'write', expiresAt: null, cidrs: [] };
    const scoped = client.withApiKey(ok(await client.call('createApiKey', { body: { label: 'www only', scope }, headers: helper })).key);
    const before = await serialOf(zoneName);
    const why = /editor grant for .* acts only through your own wallet's signature: an API key cannot use it/;
    for (const key of [unlimited, scoped]) {
      // Within the grant's scope and the key's: refused all the same, nothing written.
      const reply = await client.call('createDnsRecord', { body: record(zoneName, 'www'), headers: key });
      refused(reply, 403, why);
      expect(reply.body.data).toMatchObject({ reason: 'grant-needs-signature', grantId: granted.id });
      refused(await client.call('getZoneHistory', { query: { zoneName }, headers: key }), 403, why);
      refused(await client.call('listZoneAccess', { query: { zoneName }, headers: key }), 403, why);
    }
    refused(await client.call('revokeZoneAccess', { body: { zoneName, grantId: granted.id }, headers: unlimited }), 403, why);
    expect(await serialOf(zoneName)).toBe(before);
    const history = ok(await client.call('getZoneHistory', { query: { zoneName }, headers: await session(OWNER) }));
    expect(history.entries.map((e: { operation: string }) => e.operation)).toEqual(['grantZoneAccess']);
    // The grantee's own signature still acts, and the owner's key still reaches the zone.
    ok(await client.signed(HELPER, 'createDnsRecord', record(zoneName, 'www')));
    const ownerKey = client.withApiKey(ok(await client.call('createApiKey', { body: { label: 'owner' }, headers: await session(OWNER) })).key);
    ok(await client.call('createDnsRecord', { body: record(zoneName, 'mail'), headers: ownerKey }));
  });
});

describe('scoped API keys', () => {
  it('a key that may only write TXT under _acme adds one and is refused everything else', async () => {
    const zoneName = await domain();
    const headers = await session(OWNER);
    const scope = { zones: [zoneName], names: ['_acme', '*._acme'], types: ['TXT'], access: 'write', expiresAt: null, cidrs: [] };
    const created = ok(await client.call('createApiKey', { body: { label: 'certbot', scope }, headers }));
    expect(created.scope).toEqual(scope);
    const old = ok(await client.call('createApiKey', { body: { label: 'old' }, headers }));
    const listed = ok(await client.call('listApiKeys', { headers }));
    expect(listed.find((k: { id: string }) => k.id === created.id).scope).toEqual(scope);
    expect(listed.find((k: { id: string }) => k.id === old.id).scope).toBeNull();

    const key = client.withApiKey(created.key);
    ok(await client.call('createDnsRecord', { body: record(zoneName, '_acme', 'TXT', 'token'), headers: key }));
    ok(await client.call('createDnsRecord', { body: record(zoneName, 'www._acme', 'TXT', 'token'), headers: key }));
    refused(await client.call('createDnsRecord', { body: record(zoneName, '_acme', 'A'), headers: key }), 403, /API key's scope covers TXT .* touches A at _acme/);
    refused(await client.call('createDnsRecord', { body: record(zoneName, 'www', 'TXT', 'x'), headers: key }), 403, /touches TXT at www/);
    refused(await client.call('toggleDomainParking', { body: { normalizedDomainName: zoneName, enableParking: false, overrideExistingRecords: false }, headers: key }), 403, /Out of scope/);
    const other = await domain();
    refused(await client.call('createDnsRecord', { body: record(other, '_acme', 'TXT', 'x'), headers: key }), 403, /does not include/);
    refused(await client.call('createApiKey', { body: { label: 'more' }, headers: key }), 403, /outside it/);
    refused(await client.call('createApiKey', { body: { label: 'more' }, headers: client.withApiKey(old.key) }), 403, /cannot create keys/);
    refused(await client.call('registerDomain', { body: { normalizedDomainName: `k${count}.com`, durationInYears: 1 }, headers: key }), 403, /outside it/);
    refused(await client.call('grantZoneAccess', { body: grant(zoneName), headers: key }), 403, /does not include|Out of scope|cannot/);
    refused(await client.call('listZoneAccess', { query: { zoneName: other }, headers: key }), 403, /does not include/);
    expect(ok(await client.call('listZoneAccess', { query: { zoneName }, headers: key }))).toEqual([]);

    const history = ok(await client.call('getZoneHistory', { query: { zoneName }, headers: key }));
    expect(history.entries[0].actor).toMatchObject({ via: 'api-key', apiKeyId: created.id, apiKeyScope: scope });
    // The old key acts as the wallet, as before; its entries say it had no scope.
    ok(await client.call('createDnsRecord', { body: record(zoneName, 'www'), headers: client.withApiKey(old.key) }));
    const after = ok(await client.call('getZoneHistory', { query: { zoneName }, headers }));
    expect(after.entries[0].actor).toMatchObject({ via: 'api-key', apiKeyId: old.id, apiKeyScope: null });
  });

  it('a read key reads and never writes; an expired key and a key used from outside its addresses are refused, saying why', async () => {
    const zoneName = await domain();
    const headers = await session(OWNER);
    const base = { zones: [], names: [], types: [], access: 'write', expiresAt: null, cidrs: [] };
    const reader = ok(await client.call('createApiKey', { body: { label: 'read', scope: { ...base, access: 'read' } }, headers }));
    ok(await client.call('getZoneHistory', { query: { zoneName }, headers: client.withApiKey(reader.key) }));
    refused(await client.call('createDnsRecord', { body: record(zoneName, 'www'), headers: client.withApiKey(reader.key) }), 403, /may only read/);

    const far = ok(await client.call('createApiKey', { body: { label: 'office', scope: { ...base, cidrs: ['203.0.113.0/24'] } }, headers }));
    refused(await client.call('createDnsRecord', { body: record(zoneName, 'www'), headers: client.withApiKey(far.key) }), 403, /only from 203.0.113.0\/24/);
    const near = ok(await client.call('createApiKey', { body: { label: 'here', scope: { ...base, cidrs: ['127.0.0.0/8', '::1/128'] } }, headers }));
    ok(await client.call('createDnsRecord', { body: record(zoneName, 'www'), headers: client.withApiKey(near.key) }));

    const soon = ok(await client.call('createApiKey', { body: { label: 'soon', scope: { ...base, expiresAt: new Date(Date.now() + 60_000).toISOString() } }, headers }));
    await service.services.db.query(`UPDATE api_keys SET scope = jsonb_set(scope, '{expiresAt}', to_jsonb($2::text)) WHERE id = $1`, [soon.id, new Date(Date.now() - 1000).toISOString()]);
    refused(await client.call('createDnsRecord', { body: record(zoneName, 'www'), headers: client.withApiKey(soon.key) }), 403, /expired on/);
    refused(await client.call('createApiKey', { body: { label: 'past', scope: { ...base, expiresAt: new Date(Date.now() - 1000).toISOString() } }, headers }), 400, /.*/);
  });

  it('a key of a wallet that sold the domain can no longer touch it', async () => {
    const zoneName = await domain();
    const created = ok(await client.call('createApiKey', { body: { label: 'all' }, headers: await session(OWNER) }));
    await service.services.db.query('UPDATE domains SET owner_address = $2 WHERE name = $1', [zoneName, addressOf(OTHER).toLowerCase()]);
    refused(await client.call('createDnsRecord', { body: record(zoneName, 'www'), headers: client.withApiKey(created.key) }), 403, /does not own/);
  });
});
