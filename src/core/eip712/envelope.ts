import type { Envelope, SigningDomain, TypeRegistry } from '../wire/eip712.ts';
import { typesReachableFrom } from './registry.ts';
import { integerProblem, isIntegerType, signedValueProblems, toInteger, UnsignableValuesError } from './signed-values.ts';

/**
 * Pure functions that a client signs with and the service verifies with, so that both sides
 * project a payload onto the signed struct identically.
 */

const ENVELOPE_SUFFIX = 'Envelope';

export function payloadTypeOf(primaryType: string): string {
  return primaryType.endsWith(ENVELOPE_SUFFIX) ? primaryType.slice(0, -ENVELOPE_SUFFIX.length) : primaryType;
}

/** The struct named by the envelope's `payload` field. */
export function payloadStructOf(types: TypeRegistry, primaryType: string): string | undefined {
  return types[primaryType]?.find((field) => field.name === 'payload')?.type;
}

function projectValue(types: TypeRegistry, type: string, value: unknown): unknown {
  const list = /^(.*)\[\d*\]$/.exec(type);
  if (list) return (value as unknown[]).map((item) => projectValue(types, list[1], item));
  if (Object.hasOwn(types, type)) return projectFields(types, type, value as Record<string, unknown>);
  if (isIntegerType(type)) return toInteger(value);
  return value;
}

function projectFields(types: TypeRegistry, struct: string, source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of types[struct] ?? []) out[field.name] = projectValue(types, field.type, source[field.name]);
  return out;
}

/**
 * The payload as `struct` signs it: fields the struct lacks are dropped; every field it signs must be present and
 * hold a value of its type, or UnsignableValuesError is thrown (nothing is defaulted: an absent field is not "").
 */
export function projectStruct(types: TypeRegistry, struct: string, payload: unknown): Record<string, unknown> {
  const problems = signedValueProblems(types, struct, payload);
  if (problems.missing.length > 0 || problems.invalid.length > 0) throw new UnsignableValuesError(problems);
  return projectFields(types, struct, payload as Record<string, unknown>);
}

export function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function nowSeconds(now: number = Date.now()): number {
  return Math.floor(now / 1000);
}

export function buildEnvelope(
  primaryType: string,
  payload: Record<string, unknown>,
  options: { timestamp?: number; nonce?: string } = {},
): Envelope {
  return {
    payloadType: payloadTypeOf(primaryType),
    payload,
    timestamp: options.timestamp ?? nowSeconds(),
    nonce: options.nonce ?? randomNonce(),
  };
}

function envelopeTimestamp(timestamp: unknown): bigint {
  const problem = integerProblem('uint256', timestamp);
  if (problem) throw new UnsignableValuesError({ missing: [], invalid: [{ path: 'timestamp', message: problem }] });
  return toInteger(timestamp);
}

export interface TypedDataRequest {
  domain: SigningDomain;
  types: TypeRegistry;
  primaryType: string;
  message: Record<string, unknown>;
}

/** The typed data a wallet signs for an envelope: the projected payload, and only the types it reaches. */
export function envelopeTypedData(
  domain: SigningDomain,
  registry: TypeRegistry,
  primaryType: string,
  envelope: Envelope,
): TypedDataRequest {
  const types = typesReachableFrom(registry, primaryType);
  const struct = payloadStructOf(types, primaryType);
  if (!struct) throw new Error(`${primaryType} is not an envelope type`);
  return {
    domain,
    types,
    primaryType,
    message: {
      payloadType: envelope.payloadType,
      payload: projectStruct(types, struct, envelope.payload),
      timestamp: envelopeTimestamp(envelope.timestamp),
      nonce: envelope.nonce,
    },
  };
}
