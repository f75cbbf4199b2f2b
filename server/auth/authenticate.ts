import type { Operation } from '#core/operations/index.ts';
import { envelope } from '#core/wire/eip712.ts';
import { clientHeader } from '#core/headers.ts';
import type { Principal, Services } from '../services.ts';
import { forbidden, invalidInput, unauthorized } from '../domain-errors.ts';
import { textProblem } from '#core/wire/text.ts';
import { authenticateApiKey } from './api-key.ts';
import { authenticateEnvelope, hasSignatureHeaders } from './eip712.ts';
import { authenticateSiweToken } from './siwe-session.ts';

export interface AuthResult {
  principal: Principal | null;
  /** The plain payload: the envelope's `payload` when the body is an envelope, else the body. */
  payload: unknown;
}

/**
 * The contract's auth table. none: credentials are not looked at. optional: anonymous, or any valid credential.
 * siwe: SIWE token, API key, or EIP-712 where the operation has a type. write: EIP-712 or API key only.
 * A credential that is sent must be valid (401 otherwise), even where none is needed.
 */
export async function authenticate(services: Services, operation: Operation, request: { headers: Headers; body: unknown; clientAddress?: string }): Promise<AuthResult> {
  refuseUnfitEnvelopeText(request.body);
  const parsed = envelope.safeParse(request.body);
  const payload = parsed.success ? parsed.data.payload : request.body;
  if (operation.auth === 'none') return { principal: null, payload };
  return { principal: await principalOf(services, operation, request), payload };
}

/**
 * An envelope's own strings are stored (the nonce) or compared before the payload's schema is looked at: a NUL or a
 * lone surrogate there is a 400 on that field, whatever the credential, never a database error.
 */
function refuseUnfitEnvelopeText(body: unknown): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const fieldErrors: Record<string, string[]> = {};
  for (const field of ['payloadType', 'nonce'] as const) {
    const value = (body as Record<string, unknown>)[field];
    const problem = typeof value === 'string' ? textProblem(value) : null;
    if (problem) fieldErrors[field] = [problem];
  }
  if (Object.keys(fieldErrors).length > 0) throw invalidInput(fieldErrors);
}

async function principalOf(services: Services, operation: Operation, { headers, body, clientAddress }: { headers: Headers; body: unknown; clientAddress?: string }): Promise<Principal | null> {
  const h = services.headers;
  const now = services.now();
  const apiKey = headers.get(h.apiKey);
  if (apiKey !== null) {
    // The door, for the key list: the MCP server names itself; everything else came through the REST API.
    const door = headers.get(clientHeader(services.config.HEADER_PREFIX))?.trim().toLowerCase() === 'mcp' ? 'mcp' : 'rest';
    return refuseOutsideKeyScope(operation, await authenticateApiKey(services.db, apiKey.trim(), now, clientAddress, door));
  }
  if (hasSignatureHeaders(headers, services)) return authenticateEnvelope(services, operation, headers, body);
  const token = headers.get(h.siweToken);
  if (operation.auth === 'write') {
    if (token !== null) {
      throw unauthorized('A SIWE session does not authorise this change: sign the request (EIP-712) or use an API key');
    }
    throw unauthorized('This change needs a signed request (EIP-712) or an API key');
  }
  if (token !== null) return authenticateSiweToken(services.db, token.trim(), now);
  if (operation.auth === 'optional') return null;
  throw unauthorized(`Sign in first: this needs a SIWE token (${h.siweToken}), an API key (${h.apiKey}) or a signed request`);
}

/**
 * A scoped key changes only what its zones hold (records, and settings when its scope is every type at the apex),
 * within its scope, which the zone-change pipeline checks (server/access/authorise.ts): any other write (an order,
 * a renewal, auto-renew, the faucet) is refused here, whatever its zone.
 */
function refuseOutsideKeyScope(operation: Operation, principal: Principal): Principal {
  const scope = principal.apiKeyScope;
  if (!scope) return principal;
  const writes = operation.auth === 'write' || (operation.method !== 'GET' && operation.auth !== 'none');
  const zoneChange = operation.zone !== undefined && operation.zone.when !== 'order';
  if (writes && !zoneChange) throw forbidden(`A scoped API key changes only the zones in its scope: ${operation.id} is outside it`, { reason: 'api-key-scope' });
  return principal;
}
