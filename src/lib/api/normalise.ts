import { unsignedAcceptedFor } from '#core/eip712/registry.ts';
import type { OperationId } from '#core/operations/index.ts';

/**
 * Production answers some operations in a different shape than the local service. These turn a
 * production variant into the contract's shape before the output schema checks it.
 */
export function normaliseResponse(id: OperationId, body: unknown): unknown {
  let value = body;
  // A write answered with production's envelope {payloadType, payload, timestamp, nonce}.
  if (isRecord(value) && 'payloadType' in value && 'payload' in value && 'nonce' in value) value = value.payload;
  if (id === 'verifySiwe' && isRecord(value) && isRecord(value.session)) {
    value = { valid: value.valid ?? true, ...value.session };
  }
  if (id === 'isDomainParked' && typeof value === 'boolean') value = { parked: value };
  if (id === 'getEip712TypesForMethod' && isRecord(value) && value.found === true && !('unsignedAccepted' in value)) {
    value = { ...value, unsignedAccepted: seedExceptionFor(value.acceptedPrimaryTypes) };
  }
  return value;
}

function seedExceptionFor(accepted: unknown): Record<string, string[]> {
  // Production publishes no `unsignedAccepted`, yet (contract, Authentication) it takes the record's `type` unsigned
  // under the seed's two record structs, as the local service does: the same exception, read from the one registry.
  return unsignedAcceptedFor(Array.isArray(accepted) ? accepted.filter((t): t is string => typeof t === 'string') : []);
}

/** Park endpoints in production may answer HTTP 200 {success: false} on failure. */
export function isSoftFailure(id: OperationId, body: unknown): boolean {
  return (id === 'parkDomain' || id === 'toggleDomainParking') && isRecord(body) && body.success === false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
