import type { Envelope, SigningDomain, TypeRegistry } from '../wire/eip712.ts';
import { typesReachableFrom } from './registry.ts';

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

function toUint(value: unknown): bigint {
  if (typeof value === 'bigint') return value >= 0n ? value : 0n;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  // Unrepresentable numbers sign as 0; the input schema rejects them after authentication.
  return 0n;
}

function projectValue(types: TypeRegistry, type: string, value: unknown): unknown {
  if (type.endsWith('[]')) {
    const inner = type.slice(0, -2);
    return Array.isArray(value) ? value.map((item) => projectValue(types, inner, item)) : [];
  }
  if (types[type]) return projectStruct(types, type, value);
  if (type.startsWith('uint') || type.startsWith('int')) return toUint(value);
  if (type === 'bool') return value === true;
  if (type === 'address') return typeof value === 'string' ? value : '0x0000000000000000000000000000000000000000';
  // Only a primitive has one string form; an object (whose own `toString` may be anything) signs as "" and is
  // left to the input schema to refuse.
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? String(value) : '';
}

/** Fields absent from the payload become "", 0 or false; fields the struct lacks are dropped. */
export function projectStruct(types: TypeRegistry, struct: string, payload: unknown): Record<string, unknown> {
  const source = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const field of types[struct] ?? []) out[field.name] = projectValue(types, field.type, source[field.name]);
  return out;
}

/** Thrown when no accepted type signs every field of a payload: signing would cover less than is sent. */
export class UnsignableFieldsError extends Error {
  constructor(readonly fields: string[]) {
    super(`The service's signing types cannot sign ${fields.join(', ')}: no signature is made over less than is sent`);
  }
}

/**
 * The first accepted envelope type whose payload struct signs every field the payload sets (the contract's rule:
 * the service lists its preferred, fuller types first). Throws UnsignableFieldsError when none does.
 */
export function pickPrimaryType(types: TypeRegistry, accepted: string[], payload: Record<string, unknown>): string {
  if (accepted.length === 0) throw new Error('The operation accepts no EIP-712 type');
  const keys = Object.keys(payload).filter((k) => payload[k] !== undefined);
  const unsigned = new Set(keys);
  for (const primaryType of accepted) {
    const fields = new Set((types[payloadStructOf(types, primaryType) ?? ''] ?? []).map((field) => field.name));
    if (keys.every((k) => fields.has(k))) return primaryType;
    for (const k of keys) if (fields.has(k)) unsigned.delete(k);
  }
  throw new UnsignableFieldsError([...unsigned]);
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
      timestamp: toUint(envelope.timestamp),
      nonce: envelope.nonce,
    },
  };
}
