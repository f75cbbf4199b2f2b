import type { Context, Hono } from 'hono';
import { operations, type Operation, type OperationId } from '#core/operations/index.ts';
import { authenticate } from '../auth/authenticate.ts';
import { CLIENT_NAMES, clientHeader } from '#core/headers.ts';
import { CompressedJson } from '../support/compressed-json.ts';
import { acceptedEncodings } from './compressed-json.ts';
import { HttpError, fromZodError } from './errors.ts';
import type { Principal, Services } from '../services.ts';
import type { Handlers, RequestContext } from './context.ts';

export const API_PREFIX = '/v-next';
/** Deepest nesting a body may have: every payload of the contract is a few levels deep, and deeper JSON overflows the stack of recursive code. */
const MAX_JSON_DEPTH = 64;

/** A 200 answer with response headers of its own (x402's PAYMENT-RESPONSE). */
export class WithHeaders {
  constructor(
    readonly body: object,
    readonly headers: Record<string, string>,
  ) {}
}

export interface MountOptions {
  /** Called once a credential has verified, before the input is checked (the wallet's rate limit). */
  onAuthenticated?: (c: Context, principal: Principal) => void;
  /** The client's address as the app read it (a scoped API key may be limited to address ranges). */
  clientAddress?: (c: Context) => string | undefined;
  /** The services as this request sees them (its contract-signature checks charged to its client's budget). */
  servicesFor?: (c: Context) => Services;
}

/**
 * Mounts every operation of the table that has a handler. Order of checks (contract): malformed JSON →
 * authentication → input schema → the handler's own checks (ownership, record ids, zone rules).
 */
export function mountOperations(app: Hono, services: Services, handlers: Handlers, options: MountOptions = {}): void {
  for (const [id, operation] of Object.entries(operations) as Array<[OperationId, Operation]>) {
    // The one place the table's types meet the request: the input below is parsed with this operation's own schema.
    const handler = handlers[id] as ((ctx: RequestContext<unknown>) => Promise<unknown>) | undefined;
    if (!handler) continue;
    const path = API_PREFIX + operation.path.replace(/\{(\w+)\}/g, ':$1');
    app.on(operation.method, path, async (c) => {
      const scoped = options.servicesFor?.(c) ?? services;
      const body = operation.method === 'GET' ? undefined : await readJson(c);
      const authenticated = await authenticate(scoped, operation, { headers: c.req.raw.headers, body, clientAddress: options.clientAddress?.(c) });
      const { payload } = authenticated;
      const principal = namedClient(authenticated.principal, c.req.header(clientHeader(scoped.config.HEADER_PREFIX)));
      if (principal) options.onAuthenticated?.(c, principal);
      const params = readParams(c, operation);
      const raw = operation.method === 'GET' ? readQuery(c, operation) : payload;
      let input: unknown = raw;
      if (operation.input) {
        const parsed = operation.input.safeParse(raw ?? {});
        if (!parsed.success) throw fromZodError(parsed.error);
        input = parsed.data;
      }
      const result = await handler({ operationId: id, input, params, principal, services: scoped, request: c.req.raw });
      if (result instanceof Response) return result;
      // What an operation answers is true now, for this caller: no HTTP cache keeps it (a client caches it itself).
      c.header('cache-control', 'no-store');
      if (result instanceof CompressedJson) {
        // Already compressed (or plain when the client accepts neither): the compress middleware leaves it as it is.
        const encoded = await result.encodedFor(acceptedEncodings(c.req.header('accept-encoding')));
        c.header('vary', 'Accept-Encoding');
        if (!encoded) return c.body(result.text, 200, { 'content-type': 'application/json' });
        return c.body(new Uint8Array(encoded.body), 200, { 'content-type': 'application/json', 'content-encoding': encoded.encoding });
      }
      if (result instanceof WithHeaders) return c.json(result.body, 200, result.headers);
      return c.json(result as object);
    });
  }
}

/** The client a credential's holder names (attribution in the history, nothing more): a name the contract knows, else none. */
function namedClient(principal: Principal | null, named: string | undefined): Principal | null {
  if (!principal || named === undefined) return principal;
  const client = CLIENT_NAMES.find((name) => name === named.trim().toLowerCase());
  return client ? { ...principal, client } : principal;
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  const depth = nestingDepth(text);
  if (depth > MAX_JSON_DEPTH) {
    throw new HttpError(400, `The request body nests ${depth} levels deep; at most ${MAX_JSON_DEPTH} are accepted`, {
      formErrors: [`JSON nested deeper than ${MAX_JSON_DEPTH} levels`],
      fieldErrors: {},
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `Malformed JSON: ${(error as Error).message}`, { formErrors: ['The request body is not valid JSON'], fieldErrors: {} });
  }
}

/** How deep arrays and objects nest in JSON text, counted without parsing (strings skipped), so a deep body costs no stack. */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i += 1; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) max = Math.max(max, (depth += 1));
    else if (ch === 0x5d || ch === 0x7d) depth -= 1;
  }
  return max;
}

/** Path parameters, checked by the operation's schema when it has one (a NUL or a lone surrogate is a 400, not a query). */
function readParams(c: Context, operation: Operation): Record<string, string> {
  const params = c.req.param() as Record<string, string>;
  if (!operation.params) return params;
  const parsed = operation.params.safeParse(params);
  if (!parsed.success) throw fromZodError(parsed.error);
  return parsed.data as Record<string, string>;
}

/** Query parameters as an object; repeated keys and array fields become arrays; `payload[x]` (the seed's deep-object form) becomes x. */
function readQuery(c: Context, operation: Operation): Record<string, unknown> {
  const url = new URL(c.req.url);
  // No prototype: a parameter named __proto__ or constructor is a key like any other.
  const out: Record<string, unknown> = Object.create(null);
  const arrayFields = arrayKeysOf(operation);
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    const name = key.match(/^payload\[(\w+)\]$/)?.[1] ?? key.replace(/\[\]$/, '');
    out[name] = arrayFields.has(name) || values.length > 1 ? values.flatMap((v) => (arrayFields.has(name) ? v.split(',') : [v])).filter(Boolean) : values[0];
  }
  return out;
}

function arrayKeysOf(operation: Operation): Set<string> {
  const shape = (operation.input as { shape?: Record<string, { type?: string; def?: { type?: string } }> } | undefined)?.shape ?? {};
  return new Set(Object.entries(shape).filter(([, schema]) => schema.def?.type === 'array').map(([key]) => key));
}
