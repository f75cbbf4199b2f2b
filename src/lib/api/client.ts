import { operations, operationPath, type OperationId, type OperationOutput } from '#core/operations/index.ts';
import { ApiError, errorFromResponse } from './errors.ts';
import { isSoftFailure, normaliseResponse } from './normalise.ts';

export { ApiError, isApiError } from './errors.ts';

export interface CallArgs {
  query?: Record<string, unknown>;
  body?: unknown;
  params?: Record<string, string>;
}

export interface RequestOptions {
  baseUrl: string;
  headers?: Record<string, string>;
  credential?: ApiError['credential'];
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** How many times a GET answered 429 is retried after its Retry-After. Writes are never replayed. */
  maxRateLimitRetries?: number;
  /** The longest Retry-After (seconds) worth waiting for in the background; longer ones surface at once. */
  maxRetryAfterSeconds?: number;
  sleep?: (ms: number) => Promise<void>;
}

export function buildUrl(baseUrl: string, path: string, query?: Record<string, unknown>): string {
  const url = `${baseUrl.replace(/\/+$/, '')}${path}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const qs = search.toString();
  return qs ? `${url}?${qs}` : url;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls one operation of the contract: JSON in and out, the output checked with the operation's schema
 * (after accepting production's variants), every failure thrown as an ApiError.
 */
export async function callOperation<K extends OperationId>(
  id: K,
  args: CallArgs = {},
  options: RequestOptions,
): Promise<OperationOutput<K>> {
  const op = operations[id];
  const url = buildUrl(options.baseUrl, operationPath(op.path, args.params), args.query);
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const hasBody = op.method !== 'GET' && args.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const maxRetries = op.method === 'GET' ? (options.maxRateLimitRetries ?? 2) : 0;

  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await doFetch(url, {
        method: op.method,
        headers,
        body: hasBody ? JSON.stringify(args.body) : undefined,
        // The query cache decides what is fresh; the browser's HTTP cache never answers for the service.
        cache: 'no-store',
        signal: options.signal,
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new ApiError({
        status: 0,
        code: 'NETWORK_ERROR',
        message: 'The service could not be reached',
        credential: options.credential,
        data: { url: options.baseUrl },
      });
    }
    const body = await readBody(response);
    if (!response.ok) {
      const error = errorFromResponse(response.status, body, response.headers.get('retry-after'));
      error.credential = options.credential;
      const wait = error.retryAfterSeconds ?? 1;
      if (response.status === 429 && attempt < maxRetries && wait <= (options.maxRetryAfterSeconds ?? 5)) {
        await sleep(wait * 1000);
        continue;
      }
      throw error;
    }
    if (isSoftFailure(id, body)) {
      throw new ApiError({ status: 400, code: 'BAD_REQUEST', message: softMessage(body), data: body, credential: options.credential });
    }
    const parsed = op.output.safeParse(normaliseResponse(id, body));
    if (!parsed.success) {
      throw new ApiError({
        status: response.status,
        code: 'INVALID_RESPONSE',
        message: `The service answered ${id} in an unexpected shape`,
        data: parsed.error.issues,
        credential: options.credential,
      });
    }
    return parsed.data as OperationOutput<K>;
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function softMessage(body: unknown): string {
  const record = body as Record<string, unknown>;
  return typeof record.message === 'string' ? record.message : typeof record.error === 'string' ? record.error : 'The service could not change parking';
}
