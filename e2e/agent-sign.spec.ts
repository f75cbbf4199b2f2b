import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { test, expect } from './support/fixtures.ts';
import { API_URL, DASHBOARD_URL } from './support/env.ts';
import { TEST_KEYS } from './support/keys.ts';
import { signIn } from './support/pages.ts';
import { call, ownDomain, siweSignIn, withToken } from './support/service-client.ts';

const domain = `agent-${Date.now().toString(36)}.com`;

test.describe('An agent’s change, signed by the person’s wallet', () => {
  test.describe.configure({ timeout: 120_000 });

  test.beforeAll(async () => {
    await ownDomain(TEST_KEYS.alice, domain);
  });

  test('prepare_signature’s link shows the change in words, the wallet signs it, and the history marks it mcp', async ({ page, wallet }) => {
    // The agent: the SDK's own client on the service's /mcp, with no key at all. It can only prepare.
    const agent = new Client({ name: 'journey-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(API_URL.replace(/\/v-next$/, '/mcp'))));
    const prepared = await agent.callTool({
      name: 'prepare_signature',
      arguments: { operationId: 'batchCreateDnsRecords', payload: { zoneName: domain, records: [{ name: 'agent', type: 'TXT', rdata: '"set by an agent"', ttl: 300 }] } },
    });
    await agent.close();
    const { link } = prepared.structuredContent as { link: string };
    expect(link.startsWith(`${DASHBOARD_URL}/agent-sign#`)).toBe(true);

    await page.goto('/');
    await signIn(page, wallet);
    const signatures = () => wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length;
    const before = signatures();
    await page.goto(link);
    // Said in words before the wallet opens: what changes, and what the wallet signs.
    const change = page.getByRole('region', { name: 'The change' });
    await expect(change).toContainText(`Domain: ${domain}`);
    await expect(change.getByRole('listitem')).toHaveText([`Add a TXT record at agent.${domain}: "set by an agent" (TTL 300 s)`]);
    await expect(page.getByRole('note')).toContainText(`Create 1 record in ${domain} (CreateRecords)`);
    expect(signatures()).toBe(before);

    await page.getByRole('button', { name: 'Sign and apply' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Signed and applied' })).toBeVisible();
    expect(signatures()).toBe(before + 1);

    // The record is served, and the zone's history holds the signed entry, marked as prepared through MCP.
    const records = await call('getDnsRecords', { query: { zoneName: domain } });
    expect(records.some((r) => r.name === 'agent' && r.type === 'TXT' && r.rdata === '"set by an agent"')).toBe(true);
    const history = await call('getZoneHistory', { query: { zoneName: domain, limit: 1 } }, withToken(await siweSignIn(TEST_KEYS.alice)));
    expect(history.entries[0]).toMatchObject({ operation: 'batchCreateDnsRecords', actor: { via: 'eip712', client: 'mcp' } });
    // And the dashboard's history says so too.
    await page.getByRole('link', { name: `Open ${domain}` }).click();
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page.getByText('through MCP').first()).toBeVisible();
  });
});
