import { operations, type Operation, type OperationId } from '#core/operations/index.ts';
import { clientHeader, serviceHeaders } from '#core/headers.ts';

/**
 * How the MCP server reaches the service: through its HTTP operations and nothing else, so a tool runs exactly what
 * the router runs (the same authentication, the same authorisation, the same handler and zone pipeline). Served at
 * /mcp, `fetch` is the service's own app (no network hop); from the stdio program it is the network.
 */
export interface ServiceLink {
  /** The service's base URL, /v-next included. */
  baseUrl: string;
  fetch: (request: Request) => Promise<Response>;
  headerPrefix: string;
}

/** Who the agent is: the API key it was given (none: read-only tools only). */
export interface AgentCredential {
  apiKey: string | null;
}

export type ServiceReply = { ok: true; status: number; body: unknown } | { ok: false; status: number; message: string; fields: Record<string, string[]> };

/** Calls one operation by its declaration: query string for GET, JSON body otherwise, path parameters filled in. */
export async function callOperation(link: ServiceLink, credential: AgentCredential, id: OperationId, input: unknown, params: Record<string, string> = {}): Promise<ServiceReply> {
  const operation: Operation = operations[id];
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const url = new URL(link.baseUrl.replace(/\/$/, '') + path);
  const headers = new Headers({ accept: 'application/json', [clientHeader(link.headerPrefix)]: 'mcp' });
  if (credential.apiKey) headers.set(serviceHeaders(link.headerPrefix).apiKey, credential.apiKey);
  let body: string | undefined;
  if (operation.method === 'GET') {
    for (const [key, value] of Object.entries((input ?? {}) as Record<string, unknown>)) {
      if (value === undefined) continue;
      url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
  } else if (input !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(input);
  }
  const response = await link.fetch(new Request(url, { method: operation.method, headers, body }));
  const text = await response.text();
  const parsed = parseJson(text);
  if (response.ok) return { ok: true, status: response.status, body: parsed };
  const error = (parsed ?? {}) as { message?: unknown; data?: { fieldErrors?: Record<string, string[]>; formErrors?: string[] } };
  const message = typeof error.message === 'string' ? error.message : `The service answered ${response.status}`;
  return { ok: false, status: response.status, message, fields: error.data?.fieldErrors ?? {} };
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    // NDJSON (the history export) or plain text: kept as lines.
    return text;
  }
}
