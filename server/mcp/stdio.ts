import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DEFAULT_HEADER_PREFIX } from '#core/headers.ts';
import { createMcpServer } from './server.ts';
import { memoryStores } from './stores.ts';

/**
 * The MCP server as a stdio program (`npm run mcp`), for clients that start their servers themselves: its tools reach
 * the service over HTTP (NAMEFI_API_URL, default http://127.0.0.1:8787/v-next) with the key in NAMEFI_API_KEY (none:
 * read-only tools only). Nothing but MCP messages is written to stdout.
 */
const env = process.env;
const baseUrl = env.NAMEFI_API_URL ?? 'http://127.0.0.1:8787/v-next';
const server = createMcpServer({
  link: { baseUrl, fetch: (request) => fetch(request), headerPrefix: env.NAMEFI_HEADER_PREFIX ?? DEFAULT_HEADER_PREFIX },
  credential: { apiKey: env.NAMEFI_API_KEY?.trim() || null },
  stores: memoryStores(),
  dashboardUrl: env.DASHBOARD_URL ?? 'http://127.0.0.1:5173',
  now: () => new Date(),
});
await server.connect(new StdioServerTransport());
