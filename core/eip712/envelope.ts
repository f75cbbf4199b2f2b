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

const endsInNotes = (fields: TypeRegistry[string]) => {
  const n = fields.length;
  return n >= 2 && fields[n - 2].name === 'comment' && fields[n - 2].type === 'string' && fields[n - 1].name === 'tags' && fields[n - 1].type === 'string[]';
};

/** Whether a payload carries a record's comment or tags anywhere (an undefined one is not sent, so not carried). */
function carriesNotes(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(carriesNotes);
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Record<string, unknown>;
  if (fields.comment !== undefined || fields.tags !== undefined) return true;
  return Object.values(fields).some(carriesNotes);
}

/**
 * The types a payload is signed under: `types` as they are, or, when the payload carries no record comment or tags
 * anywhere, with every struct that ends in `comment, tags` (the local record structs) cut before them. So a
 * signature made before records had notes, or by a client that keeps none (production's structs have no notes),
 * still verifies; a payload that carries notes signs them in every record it holds.
 */
export function typesForPayload(types: TypeRegistry, payload: unknown): TypeRegistry {
  if (carriesNotes(payload)) return types;
  let cut = false;
  const out: TypeRegistry = {};
  for (const [name, fields] of Object.entries(types)) {
    if (endsInNotes(fields)) cut = true;
    out[name] = endsInNotes(fields) ? fields.slice(0, -2) : fields;
  }
  return cut ? out : types;
}

/** Whether these types sign a record's comment and tags: the local service's record structs do, production's do not. */
export function signsNotes(types: TypeRegistry): boolean {
  return Object.values(types).some(endsInNotes);
}

/**
 * The payload without record notes, for a service whose structs sign none (production): the notes of the payload
 * itself and of each of its `records`. Other fields are left as they are.
 */
function withoutNotes(payload: Record<string, unknown>): Record<string, unknown> {
  const strip = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const { comment: _comment, tags: _tags, ...rest } = value as Record<string, unknown>;
    return rest;
  };
  const out = strip(payload) as Record<string, unknown>;
  return Array.isArray(out.records) ? { ...out, records: out.records.map(strip) } : out;
}

/** The payload as a service with these types takes it: with its notes where the types sign them, else without. */
export function fitNotes<T>(types: TypeRegistry, payload: T): T {
  return signsNotes(types) ? payload : (withoutNotes(payload as Record<string, unknown>) as T);
}

/** The types reachable from `primaryType` that this payload is signed under (typesForPayload). */
export function signedTypes(registry: TypeRegistry, primaryType: string, payload: unknown): TypeRegistry {
  return typesForPayload(typesReachableFrom(registry, primaryType), payload);
}

/** The typed data a wallet signs for an envelope: the projected payload, and only the types it reaches. */
export function envelopeTypedData(
  domain: SigningDomain,
  registry: TypeRegistry,
  primaryType: string,
  envelope: Envelope,
): TypedDataRequest {
  const types = signedTypes(registry, primaryType, envelope.payload);
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
