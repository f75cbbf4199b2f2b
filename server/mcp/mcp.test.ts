import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, testClient, TEST_KEYS, type TestClient } from '../../test/support/client.ts';
import { registerAndWait } from '../../test/support/orders.ts';
import { callTool, createApiKey, httpMcpClient, mcpUrlOf, stdioMcpClient } from '../../test/support/mcp.ts';

// The MCP server driven by the SDK's own Client, over streamable HTTP (/mcp on the service) and over stdio (npm run
// mcp's program): the tools, the two-step DNS writes, quotes and idempotent spending, and the DNS-rebinding guard.
const [ALICE, BOB] = TEST_KEYS;
const CONTRACT_TOOLS = [
  'search_domains', 'suggest_domains', 'get_domain', 'list_dns_records', 'check_mail_auth', 'scan_zone', 'list_my_domains', 'list_orders', 'get_order', 'get_balance', 'get_zone_history',
  'preview_dns_changes', 'apply_dns_changes', 'set_parking', 'set_forwarding', 'set_dnssec', 'quote_registration', 'register_domain', 'renew_domain',
  'set_auto_renew', 'list_api_keys', 'revoke_api_key', 'prepare_signature',
];

let service: TestService;
let client: TestClient;
let aliceKey: { id: string; key: string };
let agent: Client;
let bobAgent: Client;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
  for (const key of [ALICE, ALICE, BOB]) await client.call('requestFaucet', { body: {}, headers: client.withToken(await client.signIn(key)) });
  await registerAndWait(client, ALICE, 'agent-zone.com');
  await registerAndWait(client, ALICE, 'agent-renew.org');
  aliceKey = await createApiKey(client, ALICE);
  agent = await httpMcpClient(service.baseUrl, aliceKey.key);
  bobAgent = await httpMcpClient(service.baseUrl, (await createApiKey(client, BOB)).key, 'bearer');
}, 90_000);
afterAll(async () => {
  await agent?.close();
  await bobAgent?.close();
  await service?.destroy();
});

const records = async (zone: string) => (await callTool(agent, 'list_dns_records', { zoneName: zone })).structured.records as Array<{ id: string; name: string; type: string; rdata: string }>;
const balance = async () => (await callTool(agent, 'get_balance', {})).structured.totalBalanceInUsdCents as number;

describe('tools', () => {
  it('lists the contract’s tools, each with input and output schemas and honest annotations; none creates a key', async () => {
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...CONTRACT_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.idempotentHint, tool.name).toBe('boolean');
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('apply_dns_changes')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('set_parking')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('search_domains')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    // Spending is destructive (money spent is not given back), idempotent by its idempotency key.
    for (const spending of ['register_domain', 'renew_domain']) {
      expect(byName.get(spending)!.annotations, spending).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    }
    expect(tools.some((t) => /api.?key/i.test(t.name) && !['list_api_keys', 'revoke_api_key'].includes(t.name))).toBe(false);
  });

  it('searches, and reads a domain without a key', async () => {
    const anonymous = await httpMcpClient(service.baseUrl);
    try {
      const found = await callTool(anonymous, 'search_domains', { domains: ['free-name.com', 'agent-zone.com'] });
      expect(found.isError).toBe(false);
      expect(found.structured.domains.map((d: { availability: boolean }) => d.availability)).toEqual([true, false]);
      const domain = await callTool(anonymous, 'get_domain', { domain: 'agent-zone.com' });
      expect(domain.structured).toMatchObject({ domain: 'agent-zone.com', status: 'active', autoRenew: { enabled: expect.any(Boolean) } });
      expect(domain.structured.owner.toLowerCase()).toBe(addressOf(ALICE).toLowerCase());
      // Writing without a key is refused as a tool error that says what to do instead.
      const refused = await callTool(anonymous, 'preview_dns_changes', { zoneName: 'agent-zone.com', creates: [{ name: 'x', type: 'TXT', rdata: '"x"' }] });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/API key.*prepare_signature/);
    } finally {
      await anonymous.close();
    }
  });

  it('names the field of a bad argument in a tool error, never a protocol error', async () => {
    const bad = await callTool(agent, 'preview_dns_changes', { zoneName: 'Not A Zone', creates: 'x' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/zoneName|creates/);
    const unknown = await callTool(agent, 'get_domain', { domain: 'nobody-has-this.com' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/not registered/);
  });
});

describe('DNS changes: preview, then apply the plan', () => {
  it('previews a change set as a diff and a plan, applies it all at once, and the history says mcp', async () => {
    const before = await records('agent-zone.com');
    const preview = await callTool(agent, 'preview_dns_changes', {
      zoneName: 'agent-zone.com',
      creates: [{ name: 'www', type: 'A', rdata: '192.0.2.10' }, { name: '@', type: 'TXT', rdata: '"agent was here"', ttl: 300 }],
    });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.structured.planId).toMatch(/^plan_/);
    expect(preview.structured.diff.map((d: { words: string }) => d.words)).toEqual(['Add A www → 192.0.2.10 (TTL 3600)', 'Add TXT @ → "agent was here" (TTL 300)']);
    // Nothing was written by the preview.
    expect(await records('agent-zone.com')).toHaveLength(before.length);

    const applied = await callTool(agent, 'apply_dns_changes', { planId: preview.structured.planId });
    expect(applied.isError, applied.text).toBe(false);
    expect(applied.structured.applied).toEqual({ created: 2, updated: 0, deleted: 0 });
    const after = await records('agent-zone.com');
    expect(after.filter((r) => r.rdata === '192.0.2.10' || r.rdata === '"agent was here"')).toHaveLength(2);

    const history = await callTool(agent, 'get_zone_history', { zoneName: 'agent-zone.com', limit: 1 });
    expect(history.structured.entries[0]).toMatchObject({ operation: 'applyDnsChanges', actor: { via: 'api-key', apiKeyId: aliceKey.id, client: 'mcp' } });

    // A plan is used once.
    const again = await callTool(agent, 'apply_dns_changes', { planId: preview.structured.planId });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/No plan/);
  });

  it('updates and deletes in one plan; a record the zone rules refuse is named by its place in the change set', async () => {
    const www = (await records('agent-zone.com')).find((r) => r.name === 'www' && r.type === 'A')!;
    const txt = (await records('agent-zone.com')).find((r) => r.rdata === '"agent was here"')!;
    const conflict = await callTool(agent, 'preview_dns_changes', { zoneName: 'agent-zone.com', creates: [{ name: 'www', type: 'CNAME', rdata: 'elsewhere.example.' }] });
    expect(conflict.isError).toBe(true);
    expect(conflict.text).toMatch(/creates\.0/);

    const preview = await callTool(agent, 'preview_dns_changes', { zoneName: 'agent-zone.com', updates: [{ id: www.id, rdata: '192.0.2.11' }], deletes: [txt.id] });
    expect(preview.structured.diff.map((d: { op: string }) => d.op)).toEqual(['delete', 'update']);
    const applied = await callTool(agent, 'apply_dns_changes', { planId: preview.structured.planId });
    expect(applied.structured.applied).toEqual({ created: 0, updated: 1, deleted: 1 });
    const now = await records('agent-zone.com');
    expect(now.find((r) => r.id === www.id)?.rdata).toBe('192.0.2.11');
    expect(now.some((r) => r.id === txt.id)).toBe(false);
  });

  it('refuses a stale plan (the zone changed since the preview) and another key’s plan', async () => {
    const first = await callTool(agent, 'preview_dns_changes', { zoneName: 'agent-zone.com', creates: [{ name: 'stale', type: 'TXT', rdata: '"one"' }] });
    const second = await callTool(agent, 'preview_dns_changes', { zoneName: 'agent-zone.com', creates: [{ name: 'fresh', type: 'TXT', rdata: '"two"' }] });
    const bobs = await callTool(bobAgent, 'apply_dns_changes', { planId: second.structured.planId });
    expect(bobs.isError).toBe(true);
    expect(bobs.text).toMatch(/No plan/);
    expect((await callTool(agent, 'apply_dns_changes', { planId: second.structured.planId })).isError).toBe(false);
    const stale = await callTool(agent, 'apply_dns_changes', { planId: first.structured.planId });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/changed since the preview/);
    expect((await records('agent-zone.com')).some((r) => r.name === 'stale')).toBe(false);
  });

  it('a key scoped to TXT under _acme-challenge adds its record, and is refused anything else with the reason', async () => {
    const scoped = await createApiKey(client, ALICE, 'certbot', { zones: ['agent-zone.com'], names: ['_acme-challenge'], types: ['TXT'], access: 'write', expiresAt: null, cidrs: [] });
    const certbot = await httpMcpClient(service.baseUrl, scoped.key, 'bearer');
    try {
      const inScope = await callTool(certbot, 'preview_dns_changes', { zoneName: 'agent-zone.com', creates: [{ name: '_acme-challenge', type: 'TXT', rdata: '"token-1"' }] });
      expect(inScope.isError, inScope.text).toBe(false);
      const applied = await callTool(certbot, 'apply_dns_changes', { planId: inScope.structured.planId });
      expect(applied.isError, applied.text).toBe(false);
      expect((await records('agent-zone.com')).some((r) => r.name === '_acme-challenge' && r.rdata === '"token-1"')).toBe(true);

      const before = await records('agent-zone.com');
      const outside = await callTool(certbot, 'preview_dns_changes', { zoneName: 'agent-zone.com', creates: [{ name: 'www', type: 'A', rdata: '192.0.2.66' }] });
      const refusal = outside.isError ? outside : await callTool(certbot, 'apply_dns_changes', { planId: outside.structured.planId });
      expect(refusal.isError).toBe(true);
      expect(refusal.text).toMatch(/scope|outside|covers/i);
      // Signing the zone is a setting of the whole zone: beyond a scope of one name and type.
      const dnssec = await callTool(certbot, 'set_dnssec', { normalizedDomainName: 'agent-zone.com', enabled: true });
      expect(dnssec.isError).toBe(true);
      expect(dnssec.text).toMatch(/Out of scope/);
      // And it spends nothing: a scoped key places no order.
      const quote = await callTool(certbot, 'quote_registration', { kind: 'register', domain: 'certbot-buys.com', years: 1 });
      const bought = quote.isError ? quote : await callTool(certbot, 'register_domain', { quoteId: quote.structured.quoteId, domain: 'certbot-buys.com', years: 1, idempotencyKey: randomUUID() });
      expect(bought.isError).toBe(true);
      expect(await records('agent-zone.com')).toEqual(before);
    } finally {
      await certbot.close();
    }
  });

  it('a key may not preview another wallet’s zone', async () => {
    const refused = await callTool(bobAgent, 'preview_dns_changes', { zoneName: 'agent-zone.com', creates: [{ name: 'bob', type: 'TXT', rdata: '"bob"' }] });
    expect(refused.isError).toBe(true);
  });
});

describe('spending: a quote, then one charge per idempotency key', () => {
  it('quotes and registers; a retried call is charged once; the quote binds name and years', async () => {
    const quote = await callTool(agent, 'quote_registration', { kind: 'register', domain: 'agent-bought.com', years: 2 });
    expect(quote.isError, quote.text).toBe(false);
    expect(quote.structured).toMatchObject({ kind: 'register', domain: 'agent-bought.com', years: 2, totalInUSDCents: 2500 });
    const wrongYears = await callTool(agent, 'register_domain', { quoteId: quote.structured.quoteId, domain: 'agent-bought.com', years: 1, idempotencyKey: randomUUID() });
    expect(wrongYears.isError).toBe(true);
    expect(wrongYears.text).toMatch(/years/);

    const before = await balance();
    const idempotencyKey = randomUUID();
    const args = { quoteId: quote.structured.quoteId, domain: 'agent-bought.com', years: 2, idempotencyKey };
    const [first, retry] = await Promise.all([callTool(agent, 'register_domain', args), callTool(agent, 'register_domain', args)]);
    expect(first.isError, first.text).toBe(false);
    expect(retry.structured.order.id).toBe(first.structured.order.id);
    expect([first.structured.replayed, retry.structured.replayed].sort()).toEqual([false, true]);
    const later = await callTool(agent, 'register_domain', args);
    expect(later.structured).toMatchObject({ replayed: true, order: { id: first.structured.order.id } });
    expect(await balance()).toBe(before - 2500);
    // The quote is spent: a new idempotency key does not buy twice with it.
    const twice = await callTool(agent, 'register_domain', { ...args, idempotencyKey: randomUUID() });
    expect(twice.isError).toBe(true);
    expect(twice.text).toMatch(/spent already/);
  });

  it('renews with a renewal quote, once per idempotency key', async () => {
    const quote = await callTool(agent, 'quote_registration', { kind: 'renew', domain: 'agent-renew.org', years: 1 });
    expect(quote.isError, quote.text).toBe(false);
    const before = await balance();
    const args = { quoteId: quote.structured.quoteId, domain: 'agent-renew.org', years: 1, idempotencyKey: randomUUID() };
    const renewed = await callTool(agent, 'renew_domain', args);
    expect(renewed.isError, renewed.text).toBe(false);
    expect(renewed.structured.order.items[0]).toMatchObject({ normalizedDomainName: 'agent-renew.org', type: 'RENEW' });
    expect((await callTool(agent, 'renew_domain', args)).structured.replayed).toBe(true);
    expect(await balance()).toBe(before - quote.structured.totalInUSDCents);
    // A register quote does not pay for a renewal.
    const registerQuote = await callTool(agent, 'quote_registration', { kind: 'register', domain: 'another-one.com', years: 1 });
    const mixed = await callTool(agent, 'renew_domain', { ...args, quoteId: registerQuote.structured.quoteId, idempotencyKey: randomUUID() });
    expect(mixed.isError).toBe(true);
  });
});

describe('prepare_signature', () => {
  it('answers the typed data and a dashboard link, and writes nothing', async () => {
    const prepared = await callTool(bobAgent, 'prepare_signature', {
      operationId: 'batchCreateDnsRecords',
      payload: { zoneName: 'agent-zone.com', records: [{ name: 'signed', type: 'TXT', rdata: '"by the wallet"', ttl: 300 }] },
    });
    expect(prepared.isError, prepared.text).toBe(false);
    expect(prepared.structured.words).toBe('Create 1 record in agent-zone.com (CreateRecords)');
    expect(prepared.structured.link).toMatch(/^http:\/\/127\.0\.0\.1:5173\/agent-sign#/);
    expect(prepared.structured.typedData).toMatchObject({ primaryType: prepared.structured.primaryType, message: { payload: { zoneName: 'agent-zone.com' } } });
    const bad = await callTool(bobAgent, 'prepare_signature', { operationId: 'batchCreateDnsRecords', payload: { zoneName: 'agent-zone.com', records: 'none' } });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/payload\.records/);
  });
});

describe('the endpoint', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  // node:http, not fetch: fetch does not let a caller set Host, and a DNS-rebinding page's request carries its own.
  const post = (headers: Record<string, string>) =>
    new Promise<{ status: number }>((resolve, reject) => {
      const url = mcpUrlOf(service.baseUrl);
      const body = JSON.stringify(initialize);
      const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: url.host, ...headers } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      });
      req.on('error', reject);
      req.end(body);
    });

  it('refuses a foreign Origin or Host (DNS rebinding) with a 403, and answers its own', async () => {
    expect((await post({ origin: 'http://evil.example.com' })).status).toBe(403);
    expect((await post({ host: 'evil.example.com' })).status).toBe(403);
    expect((await post({ origin: 'http://localhost:5173' })).status).toBe(200);
  });

  it('refuses a body larger than the API takes before reading it', async () => {
    const big = await fetch(mcpUrlOf(service.baseUrl), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ ...initialize, pad: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(big.status).toBe(413);
  });
});

describe('over stdio', () => {
  it('lists the same tools, searches, previews and applies through npm run mcp’s program', async () => {
    const stdio = await stdioMcpClient(service.baseUrl, aliceKey.key);
    try {
      expect((await stdio.listTools()).tools.map((t) => t.name).sort()).toEqual([...CONTRACT_TOOLS].sort());
      expect((await callTool(stdio, 'search_domains', { domains: ['stdio-name.com'] })).structured.domains[0].availability).toBe(true);
      const preview = await callTool(stdio, 'preview_dns_changes', { zoneName: 'agent-zone.com', creates: [{ name: 'stdio', type: 'TXT', rdata: '"over stdio"' }] });
      expect(preview.isError, preview.text).toBe(false);
      const applied = await callTool(stdio, 'apply_dns_changes', { planId: preview.structured.planId });
      expect(applied.isError, applied.text).toBe(false);
      const history = await callTool(stdio, 'get_zone_history', { zoneName: 'agent-zone.com', limit: 1 });
      expect(history.structured.entries[0].actor).toMatchObject({ via: 'api-key', client: 'mcp' });
    } finally {
      await stdio.close();
    }
  }, 30_000);
});
