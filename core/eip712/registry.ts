import type { TypeRegistry } from '../wire/eip712.ts';
import { signedOperations } from '../operations/index.ts';
import { PUBLISHED_ONLY, sharedStructs } from '../operations/structs.ts';

/** The signing domain's version; its name is the service's own (the local service: EIP712_DOMAIN_NAME). */
export const SIGNING_DOMAIN_VERSION = '1';
/** Production's signing domain: chain-agnostic, no verifying contract. A local service never signs under it. */
export const PRODUCTION_SIGNING_DOMAIN = { name: 'Namefi', version: SIGNING_DOMAIN_VERSION } as const;

const envelopeOf = (payloadStruct: string) => [
  { name: 'payloadType', type: 'string' },
  { name: 'payload', type: payloadStruct },
  { name: 'timestamp', type: 'uint256' },
  { name: 'nonce', type: 'string' },
];

/**
 * Every struct, made of the declarations (core/operations/): the published-only and shared ones, then each
 * signed operation's own in the table's order, a nested shared struct just before the first struct that uses it.
 */
function declaredStructs(): TypeRegistry {
  const own = signedOperations().map((o) => o.signed.structs);
  const pool: TypeRegistry = Object.assign({}, PUBLISHED_ONLY, sharedStructs, ...own);
  const out: TypeRegistry = {};
  const visit = (name: string) => {
    if (Object.hasOwn(out, name) || !Object.hasOwn(pool, name)) return;
    for (const field of pool[name]) if (field.type.replace(/\[\]$/, '') !== name) visit(field.type.replace(/\[\]$/, ''));
    out[name] = pool[name];
  };
  for (const name of Object.keys(PUBLISHED_ONLY)) visit(name);
  for (const structs of own) for (const name of Object.keys(structs)) visit(name);
  return out;
}

const structs = declaredStructs();
/** The payload structs a client may sign: every struct but the ones only nested in others. */
const ENVELOPED = Object.keys(structs).filter((name) => !Object.hasOwn(sharedStructs, name) && !Object.values(structs).some((fields) => fields.some((field) => field.type.replace(/\[\]$/, '') === name)));

/** The full registry the service publishes at /eip712/types and verifies with. */
export const TYPE_REGISTRY: TypeRegistry = {
  ...structs,
  ...Object.fromEntries(ENVELOPED.map((s) => [`${s}Envelope`, envelopeOf(s)])),
};

/**
 * Which envelope types each operation accepts, in the order a client should try them (it signs with the first
 * whose struct covers every field it sends); an operation absent here has no EIP-712 form. From the declarations.
 */
export const ACCEPTED_PRIMARY_TYPES: Record<string, string[]> = Object.fromEntries(signedOperations().map((o) => [o.id, [...o.signed.accepted]]));

/**
 * Payload fields a primary type leaves unsigned but the service still takes (the seed's untyped record structs do
 * not sign `type`, and its clients send it), from the declarations.
 */
export const UNSIGNED_BUT_ACCEPTED: Record<string, readonly string[]> = Object.assign({}, ...signedOperations().map((o) => o.signed.unsignedAccepted ?? {}));

/** The `unsignedAccepted` a types-for-method answer carries for these accepted primary types. */
export function unsignedAcceptedFor(primaryTypes: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(primaryTypes.filter((t) => Object.hasOwn(UNSIGNED_BUT_ACCEPTED, t)).map((t) => [t, [...UNSIGNED_BUT_ACCEPTED[t]]]));
}

/** The struct name and every struct it references, in first-use order. */
export function typesReachableFrom(registry: TypeRegistry, root: string): TypeRegistry {
  const out: TypeRegistry = {};
  const visit = (name: string) => {
    if (out[name] || !registry[name]) return;
    out[name] = registry[name];
    for (const field of registry[name]) visit(field.type.replace(/\[\]$/, ''));
  };
  visit(root);
  return out;
}

/** What `/eip712/types-for-method` answers for an operation. */
export function typesForMethod(registry: TypeRegistry, accepted: Record<string, string[]>, method: string) {
  const primaryTypes = Object.hasOwn(accepted, method) ? accepted[method] : undefined;
  if (!primaryTypes) {
    return { found: false, acceptedPrimaryTypes: [], types: {}, availableMethods: Object.keys(accepted) };
  }
  const types: TypeRegistry = {};
  for (const t of primaryTypes) Object.assign(types, typesReachableFrom(registry, t));
  const unsignedAccepted = unsignedAcceptedFor(primaryTypes);
  return { found: true, acceptedPrimaryTypes: primaryTypes, types, unsignedAccepted };
}
