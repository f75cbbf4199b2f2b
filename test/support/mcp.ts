import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Hex } from 'viem';
import type { TestClient } from './client.ts';

/** The service's /mcp URL from its API base URL. */
export const mcpUrlOf = (baseUrl: string) => new URL(`${baseUrl.replace(/\/v-next\/?$/, '')}/mcp`);

/** The SDK's own client over streamable HTTP, with an API key (x-api-key, or as a Bearer token). */
export async function httpMcpClient(baseUrl: string, apiKey?: string, how: 'x-api-key' | 'bearer' = 'x-api-key'): Promise<Client> {
  const headers: Record<string, string> = apiKey ? (how === 'bearer' ? { authorization: `Bearer ${apiKey}` } : { 'x-api-key': apiKey }) : {};
  const client = new Client({ name: 'namefi-test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrlOf(baseUrl), { requestInit: { headers } }));
  return client;
}

/** The SDK's own client over stdio: `npm run mcp`'s program, started as a client starts it, pointed at the service. */
export async function stdioMcpClient(baseUrl: string, apiKey?: string, env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'namefi-test-agent', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'server/mcp/stdio.ts'],
    env: { PATH: process.env.PATH ?? '', NAMEFI_API_URL: baseUrl, ...(apiKey ? { NAMEFI_API_KEY: apiKey } : {}), ...env },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

/** A tool's answer: its structured content when it succeeded, its words when it was refused. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { isError: result.isError === true, text, structured: (result.structuredContent ?? {}) as Record<string, any> };
}

/** A new API key of the wallet `key` signs in with (the dashboard's way: a SIWE session creates it). */
export async function createApiKey(client: TestClient, key: Hex, label = 'agent', scope?: ApiKeyScope): Promise<{ id: string; key: string }> {
  const reply = await client.call('createApiKey', { body: scope ? { label, scope } : { label }, headers: client.withToken(await client.signIn(key)) });
  if (reply.status !== 200) throw new Error(`createApiKey: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { id: reply.body.id, key: reply.body.key };
}
