import { hashTypedData, isAddress, isErc6492Signature, type Hex } from 'viem';
import { envelopeTypedData, payloadStructOf, payloadTypeOf, signedTypes } from '#core/eip712/envelope.ts';
import { TYPE_REGISTRY } from '#core/eip712/registry.ts';
import { integerProblem, signedValueProblems } from '#core/eip712/signed-values.ts';
import { unsignedFields } from '#core/eip712/unsigned-fields.ts';
import { ENVELOPE_WINDOW, envelope as envelopeSchema, type Envelope } from '#core/wire/eip712.ts';
import type { Operation } from '#core/operations/index.ts';
import type { Principal, Services } from '../services.ts';
import { DomainError, invalidInput, unauthorized } from '../domain-errors.ts';
import { NO_CHAIN_MESSAGE, SignatureCheckTimeout, TIMED_OUT_MESSAGE } from './contract-signatures.ts';
import { recoverSigner } from './recover-signer.ts';
import { signingDomain } from './signing-domain.ts';

/** A timestamp this large is milliseconds, not seconds (year 5138 in seconds). */
const MILLISECONDS_THRESHOLD = 1e11;
/** Nonces are remembered a little past the window, so a replay can never slip through at its edge. */
const NONCE_MEMORY_S = ENVELOPE_WINDOW.pastSeconds + ENVELOPE_WINDOW.futureSeconds;
const PRUNE_EVERY_MS = 60_000;

/** Whether the request carries any EIP-712 header: then it is an EIP-712 request and must verify. */
export function hasSignatureHeaders(headers: Headers, services: Services): boolean {
  const h = services.headers;
  return headers.has(h.signature) || headers.has(h.signer) || headers.has(h.eip712Type);
}

/**
 * Verifies an EIP-712 envelope request: accepted primary type, envelope shape, timestamp window, signature
 * (recovered locally; a contract account needs a chain), then spends the nonce. Returns the acting wallet.
 */
export async function authenticateEnvelope(services: Services, operation: Operation, headers: Headers, body: unknown): Promise<Principal> {
  const h = services.headers;
  const signer = headers.get(h.signer)?.trim();
  const signature = headers.get(h.signature)?.trim();
  const primaryType = headers.get(h.eip712Type)?.trim();
  if (!signer) throw unauthorized(`A signed request needs the ${h.signer} header (the signing wallet's address)`);
  if (!isAddress(signer, { strict: false })) throw unauthorized(`${h.signer} is not an address: expected 0x and 40 hex characters`);
  if (!signature) throw unauthorized(`A signed request needs the ${h.signature} header`);
  if (!/^0x[0-9a-fA-F]+$/.test(signature)) throw unauthorized(`${h.signature} is malformed: expected 0x-prefixed hex`);
  if (!primaryType) throw unauthorized(`A signed request needs the ${h.eip712Type} header (the primary type signed)`);

  const accepted: readonly string[] = operation.signed?.accepted ?? [];
  if (accepted.length === 0) {
    throw unauthorized(`${operation.id} takes no EIP-712 signature: use ${operation.auth === 'write' ? 'an API key' : 'a SIWE token or an API key'}`);
  }
  if (!accepted.includes(primaryType)) {
    throw unauthorized(`${operation.id} does not accept the primary type ${primaryType}: it accepts ${accepted.join(', ')}`);
  }

  const parsed = envelopeSchema.safeParse(body);
  if (!parsed.success) {
    throw unauthorized('A signed request\u2019s body must be the envelope {payloadType, payload, timestamp, nonce}');
  }
  const envelope: Envelope = parsed.data;
  const expectedPayloadType = payloadTypeOf(primaryType);
  if (envelope.payloadType !== expectedPayloadType) {
    throw unauthorized(`The envelope's payloadType is ${envelope.payloadType}, but ${primaryType} signs ${expectedPayloadType}`);
  }
  // Before hashing: a field absent or a number its type cannot hold would otherwise sign as something nobody sent.
  refuseUnsignableValues(primaryType, envelope.payload, (body as { timestamp: unknown }).timestamp);
  const nowMs = services.now().getTime();
  checkTimestamp(envelope.timestamp, Math.floor(nowMs / 1000));

  const chainHeader = headers.get(h.chainId)?.trim();
  const chainId = chainHeader ? Number(chainHeader) : undefined;
  if (chainHeader && !(Number.isSafeInteger(chainId) && chainId! > 0)) throw unauthorized(`${h.chainId} is not a chain id`);
  const ours = signingDomain(services.config);
  const domain = chainId === undefined ? ours : { ...ours, chainId };
  const typed = envelopeTypedData(domain, TYPE_REGISTRY, primaryType, envelope) as Parameters<typeof hashTypedData>[0];

  const hash = hashTypedData(typed);
  // Only a plain ECDSA signature names a key. Anything else (an ERC-6492 wrapping for an account not deployed
  // yet, a Safe's concatenated owner signatures) only the account can judge, through ERC-1271.
  let recovered: string | null = null;
  if (!isErc6492Signature(signature as Hex)) recovered = await recoverSigner(hash, signature as Hex).catch(() => null);

  const signerLower = signer.toLowerCase();
  const delegated = headers.get(h.eip7702Account) ?? headers.get(h.erc1271Account) ?? headers.get(h.eip1271Account);
  let wallet = signerLower;
  if (delegated) {
    // The signer acts for the account: it must have made the signature itself, and the account must accept it.
    if (recovered !== signerLower) throw unauthorized(`The signer does not match ${h.signer}: the signature was made by another key`);
    wallet = await verifyContractAccount(services, delegated.trim(), `The delegated account ${delegated.trim()}`, hash, signature as Hex, chainId);
  } else if (recovered !== signerLower) {
    const what =
      recovered === null
        ? `${h.signature} is not a valid signature of a key, and the signer, as a contract account,`
        : `The signer does not match ${h.signer}, and as a contract account it`;
    await verifyContractAccount(services, signerLower, what, hash, signature as Hex, chainId);
  }

  // The service acts only on what was signed: an unsigned extra is refused whole, before the nonce is spent, so
  // the client learns at once and can sign again with a type that covers it.
  refuseUnsignedFields(primaryType, envelope.payload, operation.signed?.unsignedAccepted?.[primaryType] ?? []);

  // Spent for the key that signed, so a signature used for an account cannot be replayed as its owner or for another
  // account; and for an account that vouched for its own signature, so an envelope cannot pass once wrapped
  // (ERC-6492) and once bare.
  const vouched = !delegated && recovered !== signerLower;
  await spendNonce(services, [...new Set([recovered, vouched ? signerLower : null].filter((k): k is string => k !== null))], envelope, nowMs);
  // Kept in the zone's history: the body as received, with the domain and types it verified under.
  const signed = { domain, primaryType, types: signedTypes(TYPE_REGISTRY, primaryType, envelope.payload), envelope: body as Record<string, unknown>, signature, signer };
  return wallet === signerLower ? { wallet, via: 'eip712', signed } : { wallet, via: 'eip712', signer: recovered ?? signerLower, signed };
}

function refuseUnsignableValues(primaryType: string, payload: Record<string, unknown>, timestamp: unknown): void {
  const types = signedTypes(TYPE_REGISTRY, primaryType, payload);
  const struct = payloadStructOf(types, primaryType) ?? '';
  const { missing, invalid } = signedValueProblems(types, struct, payload);
  const timestampProblem = integerProblem('uint256', timestamp);
  if (timestampProblem) invalid.push({ path: 'timestamp', message: timestampProblem });
  if (missing.length === 0 && invalid.length === 0) return;
  const fieldErrors: Record<string, string[]> = {};
  for (const path of missing) fieldErrors[path] = [`signed by ${primaryType} but absent: send every field it signs (the stored value of one you do not change)`];
  for (const { path, message } of invalid) (fieldErrors[path] ??= []).push(message);
  throw invalidInput(fieldErrors, {
    ...(missing.length > 0 ? { rule: 'MISSING_SIGNED_FIELD' as const } : {}),
    message:
      missing.length > 0
        ? `The payload lacks ${missing.join(', ')}, which ${primaryType} signs; nothing was done`
        : `${invalid.map((p) => `${p.path} ${p.message}`).join('; ')}; nothing was done`,
  });
}

/** `allowed`: the fields the operation's declaration takes unsigned under this primary type. */
function refuseUnsignedFields(primaryType: string, payload: Record<string, unknown>, allowed: readonly string[]): void {
  const types = signedTypes(TYPE_REGISTRY, primaryType, payload);
  const struct = payloadStructOf(types, primaryType) ?? '';
  const unsigned = unsignedFields(types, struct, payload, allowed);
  if (unsigned.length === 0) return;
  const message = `not signed by ${primaryType}: sign with a type that covers it, or leave it out`;
  throw invalidInput(Object.fromEntries(unsigned.map((path) => [path, [message]])), {
    rule: 'UNSIGNED_FIELD',
    message: `The payload carries ${unsigned.join(', ')}, which ${primaryType} does not sign; nothing was done`,
  });
}

function checkTimestamp(timestamp: number, now: number): void {
  if (!Number.isInteger(timestamp)) throw unauthorized('The envelope timestamp must be whole Unix seconds');
  if (timestamp > MILLISECONDS_THRESHOLD) throw unauthorized('The envelope timestamp is in milliseconds: send Unix seconds');
  if (timestamp > now + ENVELOPE_WINDOW.futureSeconds) {
    throw unauthorized(`The envelope timestamp is more than ${ENVELOPE_WINDOW.futureSeconds} seconds in the future: check the device clock`);
  }
  if (timestamp < now - ENVELOPE_WINDOW.pastSeconds) {
    throw unauthorized(`The signature was made more than ${ENVELOPE_WINDOW.pastSeconds / 60} minutes ago: sign the request again`);
  }
}

async function verifyContractAccount(
  services: Services,
  account: string,
  what: string,
  hash: Hex,
  signature: Hex,
  chainId: number | undefined,
): Promise<string> {
  if (!isAddress(account, { strict: false })) throw unauthorized(`${what} is not an address`);
  const verifier = services.contractSignatures;
  if (!verifier) throw unauthorized(`${what} ${NO_CHAIN_MESSAGE}`);
  let accepted = false;
  try {
    accepted = await verifier.isValidSignature({ account, hash, signature, chainId });
  } catch (error) {
    // A spent budget (429) stands; a chain too slow to answer is this credential not verified, never a 5xx.
    if (error instanceof DomainError) throw error;
    if (error instanceof SignatureCheckTimeout) throw unauthorized(`${what} ${TIMED_OUT_MESSAGE}`);
    accepted = false;
  }
  if (!accepted) throw unauthorized(`${what} did not accept the signature`);
  return account.toLowerCase();
}

async function spendNonce(services: Services, keys: string[], envelope: Envelope, nowMs: number): Promise<void> {
  const expiresAt = new Date(Math.max(envelope.timestamp * 1000, nowMs) + NONCE_MEMORY_S * 1000).toISOString();
  const now = new Date(nowMs).toISOString();
  // A nonce whose memory has lapsed may be stored again; its envelope could not pass the window check anyway.
  const rows = await services.db.query(
    `INSERT INTO envelope_nonces (signer, nonce, expires_at) SELECT k, $2, $3 FROM unnest($1::text[]) AS k
     ON CONFLICT (signer, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE envelope_nonces.expires_at < $4
     RETURNING nonce`,
    [keys, envelope.nonce, expiresAt, now],
  );
  if (rows.length < keys.length) throw unauthorized('This nonce was already used: sign the request again');
  if (nowMs - services.envelopeNonces.prunedAtMs > PRUNE_EVERY_MS) {
    services.envelopeNonces.prunedAtMs = nowMs;
    await services.db.query('DELETE FROM envelope_nonces WHERE expires_at < $1', [now]);
  }
}
