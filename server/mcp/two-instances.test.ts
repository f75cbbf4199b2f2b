import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startPostgres, type PostgresServer } from '../../test/support/postgres-server.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { TEST_KEYS, testClient } from '../../test/support/client.ts';
import { registerAndWait } from '../../test/support/orders.ts';
import { callTool, createApiKey, httpMcpClient } from '../../test/support/mcp.ts';

// Two instances of the service on one PostgreSQL, one agent key: what the MCP server remembers between calls (plans,
// quotes, a purchase's answer under its idempotency key) holds whichever instance a call reaches.
const [ALICE] = TEST_KEYS;
let postgres: PostgresServer;
let one: TestService;
let two: TestService;
let onOne: Client;
let onTwo: Client;

beforeAll(async () => {
  postgres = await startPostgres();
  one = await startTestService({ DATABASE_URL: postgres.url, DNS_PORT: '0' });
  two = await startTestService({ DATABASE_URL: postgres.url, DNS_PORT: '0' });
  const client = testClient(one);
  await client.call('requestFaucet', { body: {}, headers: client.withToken(await client.signIn(ALICE)) });
  await registerAndWait(client, ALICE, 'agent-two.com');
  const key = await createApiKey(client, ALICE);
  onOne = await httpMcpClient(one.baseUrl, key.key);
  onTwo = await httpMcpClient(two.baseUrl, key.key);
}, 120_000);
afterAll(async () => {
  await onOne?.close();
  await onTwo?.close();
  await one?.destroy();
  await two?.destroy();
  await postgres?.stop();
});

describe('the MCP server on two instances', () => {
  it('applies on one instance a plan previewed on the other, once', async () => {
    const preview = await callTool(onOne, 'preview_dns_changes', { zoneName: 'agent-two.com', creates: [{ name: 'across', type: 'TXT', rdata: '"from one to two"' }] });
    expect(preview.isError, preview.text).toBe(false);
    const applied = await callTool(onTwo, 'apply_dns_changes', { planId: preview.structured.planId });
    expect(applied.isError, applied.text).toBe(false);
    expect(applied.structured.applied).toEqual({ created: 1, updated: 0, deleted: 0 });
    const listed = await callTool(onOne, 'list_dns_records', { zoneName: 'agent-two.com' });
    expect(listed.structured.records.filter((r: { name: string }) => r.name === 'across')).toHaveLength(1);
    const again = await callTool(onOne, 'apply_dns_changes', { planId: preview.structured.planId });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/No plan/);
  });

  it('charges a purchase retried on the other instance once, even when both calls arrive together', async () => {
    const balance = async () => (await callTool(onOne, 'get_balance', {})).structured.totalBalanceInUsdCents as number;
    const quote = await callTool(onOne, 'quote_registration', { kind: 'register', domain: 'agent-two-bought.com', years: 1 });
    expect(quote.isError, quote.text).toBe(false);
    const before = await balance();
    const args = { quoteId: quote.structured.quoteId, domain: 'agent-two-bought.com', years: 1, idempotencyKey: randomUUID() };
    const [first, second] = await Promise.all([callTool(onOne, 'register_domain', args), callTool(onTwo, 'register_domain', args)]);
    expect(first.isError, first.text).toBe(false);
    expect(second.isError, second.text).toBe(false);
    expect(second.structured.order.id).toBe(first.structured.order.id);
    expect([first.structured.replayed, second.structured.replayed].sort()).toEqual([false, true]);
    const later = await callTool(onTwo, 'register_domain', args);
    expect(later.structured).toMatchObject({ replayed: true, order: { id: first.structured.order.id } });
    expect(await balance()).toBe(before - quote.structured.totalInUSDCents);
    // The quote was spent on one instance: a fresh key on the other does not buy again with it.
    const twice = await callTool(onTwo, 'register_domain', { ...args, idempotencyKey: randomUUID() });
    expect(twice.isError).toBe(true);
    expect(twice.text).toMatch(/spent already/);
  });
});
