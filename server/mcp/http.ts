import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { serviceHeaders } from '#core/headers.ts';
import type { Config } from '../config.ts';
import { createMcpServer } from './server.ts';
import type { McpStores } from './stores.ts';

const MCP_PATH = '/mcp';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * The MCP server at /mcp (streamable HTTP, stateless: each POST is answered on its own, so any instance answers any
 * request). Its tools call the service's operations through the app itself (`app.fetch`, with the request's own
 * connection, so rate limits and client addresses hold): the same router, authentication and handlers as over HTTP.
 * A foreign Host or Origin is a 403 (DNS rebinding: a web page must not drive a local agent's key).
 */
export function mountMcp(app: Hono, config: Config, stores: McpStores, now: () => Date): void {
  const apiKeyHeader = serviceHeaders(config.HEADER_PREFIX).apiKey;
  // A message is small; a body past the API's own limit is refused before it is read, as under /v-next.
  app.use(MCP_PATH, bodyLimit({ maxSize: config.BODY_LIMIT_BYTES, onError: (c) => c.json({ jsonrpc: '2.0', error: { code: -32600, message: `The request body is larger than ${config.BODY_LIMIT_BYTES} bytes` }, id: null }, 413) }));
  app.all(MCP_PATH, async (c) => {
    const refusal = foreignCaller(c, config);
    if (refusal) return c.json({ jsonrpc: '2.0', error: { code: -32000, message: refusal }, id: null }, 403);
    const apiKey = c.req.header(apiKeyHeader)?.trim() || bearerOf(c.req.header('authorization')) || null;
    const base = new URL(c.req.url);
    const link = {
      baseUrl: `${base.protocol}//${base.host}/v-next`,
      fetch: (request: Request) => Promise.resolve(app.fetch(request, c.env)),
      headerPrefix: config.HEADER_PREFIX,
    };
    const server = createMcpServer({ link, credential: { apiKey }, stores, dashboardUrl: config.DASHBOARD_URL, now });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      void server.close();
    }
  });
}

function bearerOf(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match ? match[1] : null;
}

/** Why a request may come from a page the person did not mean to let in: a Host or an Origin that is not ours. */
function foreignCaller(c: Context, config: Config): string | null {
  const host = c.req.header('host');
  const hostName = host ? hostNameOf(host) : null;
  const allowed = new Set([...LOOPBACK, config.HOST.toLowerCase(), ...config.MCP_ALLOWED_HOSTS.map((h) => h.toLowerCase())]);
  if (hostName === null || !allowed.has(hostName)) return `Host ${host ?? '(none)'} is not served: the MCP endpoint answers only its own host names`;
  const origin = c.req.header('origin');
  if (origin === undefined) return null;
  const originOk = config.CORS_ORIGINS.some((pattern) => matches(pattern, origin)) || sameOrigin(origin, config.DASHBOARD_URL);
  return originOk ? null : `Origin ${origin} may not call the MCP endpoint`;
}

function hostNameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.replace(/:\d+$/, '');
}

function sameOrigin(origin: string, url: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

function matches(pattern: string, origin: string): boolean {
  if (pattern === '*') return false; // a wildcard CORS setting does not open the MCP endpoint to every page
  const regex = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  return regex.test(origin);
}
