// OWNED BY THE AUTH ENGINEER: replace this body with the real API-key / EIP-712 / SIWE / delegated checks.
import type { Operation } from '../../src/core/operations.ts';
import { envelope } from '../../src/core/wire/eip712.ts';
import type { Principal, Services } from '../http/context.ts';
import { unauthorized } from '../http/errors.ts';

export interface AuthResult {
  principal: Principal | null;
  /** The plain payload: the envelope's `payload` when the body is an envelope, else the body. */
  payload: unknown;
}

export async function authenticate(
  _services: Services,
  operation: Operation,
  request: { headers: Headers; body: unknown },
): Promise<AuthResult> {
  const parsed = envelope.safeParse(request.body);
  const payload = parsed.success ? parsed.data.payload : request.body;
  if (operation.auth === 'none' || operation.auth === 'optional') return { principal: null, payload };
  throw unauthorized();
}
