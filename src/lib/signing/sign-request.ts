import { serviceHeaders } from '#core/headers.ts';
import { buildEnvelope, envelopeTypedData, type TypedDataRequest } from '#core/eip712/envelope.ts';
import type { Envelope, SigningDomain, TypesForMethod } from '#core/wire/eip712.ts';
import { SignatureRejectedError, UnsignableRequestError, isUserRejection } from './errors.ts';
import { chooseSigning } from '#core/eip712/signing-choice.ts';

export type SignTypedData = (request: TypedDataRequest) => Promise<`0x${string}`>;

export interface SignedRequest {
  body: Envelope;
  headers: Record<string, string>;
  primaryType: string;
}

/**
 * Builds and signs the envelope of one write: picks the accepted primary type that signs all of the payload,
 * projects the payload onto its struct (inside core), signs, and names the three headers. The body
 * carries the full payload; the signature covers its projection, as the service recomputes it.
 */
export async function signRequest(args: {
  prefix: string;
  signer: `0x${string}`;
  domain: SigningDomain;
  typesForMethod: TypesForMethod;
  payload: Record<string, unknown>;
  sign: SignTypedData;
  timestamp?: number;
  nonce?: string;
}): Promise<SignedRequest> {
  const { typesForMethod, payload } = args;
  const choice = chooseSigning(typesForMethod, payload);
  if (choice.how === 'session') throw new Error('This operation has no EIP-712 form; use the API key or the SIWE token');
  if (choice.how === 'cannot') throw new UnsignableRequestError(choice.unsigned);
  const { primaryType } = choice;
  const envelope = buildEnvelope(primaryType, payload, { timestamp: args.timestamp, nonce: args.nonce });
  const typedData = envelopeTypedData(args.domain, typesForMethod.types, primaryType, envelope);
  let signature: `0x${string}`;
  try {
    signature = await args.sign(typedData);
  } catch (error) {
    if (isUserRejection(error)) throw new SignatureRejectedError();
    throw error;
  }
  const h = serviceHeaders(args.prefix);
  const headers: Record<string, string> = {
    [h.signer]: args.signer,
    [h.signature]: signature,
    [h.eip712Type]: primaryType,
  };
  // Production verifies with a chainId only when told which one was signed.
  if (args.domain.chainId !== undefined) headers[h.chainId] = String(args.domain.chainId);
  return { body: envelope, headers, primaryType };
}

