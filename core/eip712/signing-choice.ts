import type { TypesForMethod } from '../wire/eip712.ts';
import { payloadStructOf, typesForPayload } from './envelope.ts';
import { signedValueProblems } from './signed-values.ts';
import { unsignedFields } from './unsigned-fields.ts';

/**
 * How one write will be authenticated, decided from what `/eip712/types-for-method` answered, before any wallet
 * opens. The dashboard and the test clients both sign through it:
 * - `signature`: the first accepted primary type whose struct signs every field sent (at any depth) and lacks none;
 *   `unsignedAccepted` names the fields the service publishes as taken unsigned under it (`unsignedAccepted`);
 * - `session`: the service publishes no EIP-712 form for it (`found: false`): the API key or SIWE token, as the contract says;
 * - `cannot`: no accepted type signs all that is sent (`unsigned` names what is missing). Nothing is signed then:
 *   a signature over less than the request carries would let whoever relays it change the rest.
 */
export type SigningChoice =
  | { how: 'signature'; primaryType: string; unsignedAccepted: string[] }
  | { how: 'session' }
  | { how: 'cannot'; unsigned: string[] };

/** The payload as JSON carries it: absent and undefined fields alike are not sent, so need no signature. */
function asSent(payload: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
}

export function chooseSigning(types: TypesForMethod, payload: Record<string, unknown>): SigningChoice {
  if (!types.found || types.acceptedPrimaryTypes.length === 0) return { how: 'session' };
  const sent = asSent(payload);
  const registry = typesForPayload(types.types, sent);
  const candidates = types.acceptedPrimaryTypes.map((primaryType) => {
    const struct = payloadStructOf(registry, primaryType);
    // A type whose struct the service did not publish signs nothing of the payload.
    const published = struct !== undefined && Object.hasOwn(registry, struct);
    const unsigned = published ? unsignedFields(registry, struct, sent) : Object.keys(sent);
    const complete = published && signedValueProblems(registry, struct, sent).missing.length === 0;
    const mayGoUnsigned = types.unsignedAccepted && Object.hasOwn(types.unsignedAccepted, primaryType) ? types.unsignedAccepted[primaryType] : [];
    return { primaryType, unsigned, complete, tolerated: unsigned.every((field) => mayGoUnsigned.includes(field)) };
  });
  // A type that would sign a field the payload lacks is a last resort: it could only be signed with a value nobody chose.
  const ranked = [...candidates.filter((c) => c.complete), ...candidates.filter((c) => !c.complete)];
  const full = ranked.find((c) => c.unsigned.length === 0);
  if (full) return { how: 'signature', primaryType: full.primaryType, unsignedAccepted: [] };
  const tolerated = ranked.find((c) => c.tolerated);
  if (tolerated) return { how: 'signature', primaryType: tolerated.primaryType, unsignedAccepted: tolerated.unsigned };
  const fewest = candidates.reduce((best, c) => (c.unsigned.length < best.unsigned.length ? c : best));
  return { how: 'cannot', unsigned: fewest.unsigned };
}
