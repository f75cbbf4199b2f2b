import { payloadStructOf } from '@/core/eip712/envelope.ts';
import { unsignedFields } from '@/core/eip712/unsigned-fields.ts';
import type { TypesForMethod } from '@/core/wire/eip712.ts';

/**
 * How one write will be authenticated, decided from what `/eip712/types-for-method` answered, before any wallet opens:
 * - `signature`: the first accepted primary type whose struct signs every field sent (at any depth);
 *   `unsignedAccepted` names the fields the contract lets go unsigned under it (see RECORD_TYPE_MAY_GO_UNSIGNED);
 * - `session`: the service publishes no EIP-712 form for it (`found: false`): the API key or SIWE token, as the contract says;
 * - `cannot`: no accepted type signs all that is sent (`unsigned` names what is missing). Nothing is signed then:
 *   a signature over less than the request carries would let whoever relays it change the rest.
 */
export type SigningChoice =
  | { how: 'signature'; primaryType: string; unsignedAccepted: string[] }
  | { how: 'session' }
  | { how: 'cannot'; unsigned: string[] };

/**
 * The contract keeps the seed's untyped record structs working: under them the record's `type` travels unsigned.
 * A write that relies on this is allowed, and its notice says so (see unsignedTypeNotice).
 */
export const RECORD_TYPE_MAY_GO_UNSIGNED: Readonly<Record<string, readonly string[]>> = {
  createDnsRecord: ['type'],
  updateDnsRecord: ['type'],
};

/** The payload as JSON carries it: absent and undefined fields alike are not sent, so need no signature. */
function asSent(payload: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
}

export function chooseSigning(method: string, types: TypesForMethod, payload: Record<string, unknown>): SigningChoice {
  if (!types.found || types.acceptedPrimaryTypes.length === 0) return { how: 'session' };
  const sent = asSent(payload);
  const mayGoUnsigned = Object.hasOwn(RECORD_TYPE_MAY_GO_UNSIGNED, method) ? RECORD_TYPE_MAY_GO_UNSIGNED[method] : [];
  const candidates = types.acceptedPrimaryTypes.map((primaryType) => {
    const struct = payloadStructOf(types.types, primaryType);
    // A type whose struct the service did not publish signs nothing of the payload.
    const unsigned = struct && Object.hasOwn(types.types, struct) ? unsignedFields(types.types, struct, sent) : Object.keys(sent);
    return { primaryType, unsigned };
  });
  const full = candidates.find((c) => c.unsigned.length === 0);
  if (full) return { how: 'signature', primaryType: full.primaryType, unsignedAccepted: [] };
  const tolerated = candidates.find((c) => c.unsigned.every((field) => mayGoUnsigned.includes(field)));
  if (tolerated) return { how: 'signature', primaryType: tolerated.primaryType, unsignedAccepted: tolerated.unsigned };
  const fewest = candidates.reduce((best, c) => (c.unsigned.length < best.unsigned.length ? c : best));
  return { how: 'cannot', unsigned: fewest.unsigned };
}

/** `records.0.type`, `records.1.type` → `records[].type`: one name per field for a notice. */
export function fieldNames(paths: string[]): string[] {
  return [...new Set(paths.map((p) => p.replace(/\.\d+(?=\.|$)/g, '[]')))];
}

/** The notice line for a write whose record type goes unsigned under the seed's structs. */
export function unsignedTypeNotice(recordTypes: string[]): string {
  const named = [...new Set(recordTypes)].join(', ');
  return `This service does not sign the record type${named ? ` (${named})` : ''}: whoever relays the request could change it. The rest is signed.`;
}
