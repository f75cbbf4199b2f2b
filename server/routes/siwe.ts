import { getAddress, hashMessage, type Hex } from 'viem';
import { createSiweMessage, generateSiweNonce } from 'viem/siwe';
import type { z } from 'zod';
import { SIWE_NONCE_TTL_S, SIWE_STATEMENT, type SiweMessage, type messageQuery, type nonceQuery, type verifyInput } from '#core/wire/siwe.ts';
import { createSession } from '../auth/siwe-session.ts';
import { NO_CHAIN_MESSAGE, SignatureCheckTimeout, TIMED_OUT_MESSAGE } from '../auth/contract-signatures.ts';
import { recoverSigner } from '../auth/recover-signer.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import type { Services } from '../services.ts';
import { DomainError, invalidInput } from '../domain-errors.ts';

/** How far a message's issuedAt may lie ahead of the service's clock. */
const CLOCK_SKEW_MS = 30_000;

interface NonceRow {
  address: string;
  expires_at: Date | string;
  used_at: Date | string | null;
}

const uriOf = (services: Services) => `http://${services.config.SIWE_DOMAIN}`;

/** The EIP-4361 text of a structured message: what the wallet signs and what verify recomputes. */
function messageString(message: SiweMessage): string {
  const text = createSiweMessage({
    address: getAddress(message.address),
    chainId: message.chainId,
    domain: message.domain,
    uri: message.uri,
    nonce: message.nonce,
    statement: message.statement,
    version: message.version,
    issuedAt: new Date(message.issuedAt),
    expirationTime: new Date(message.expirationTime),
  });
  // The times as the message spells them (a client may leave out the milliseconds): the text signed is the text sent.
  return text
    .replace(`Issued At: ${new Date(message.issuedAt).toISOString()}`, `Issued At: ${message.issuedAt}`)
    .replace(`Expiration Time: ${new Date(message.expirationTime).toISOString()}`, `Expiration Time: ${message.expirationTime}`);
}

async function nonceProblem(services: Services, nonce: string, address: string, now: Date): Promise<string | null> {
  const [row] = await services.db.query<NonceRow>('SELECT address, expires_at, used_at FROM siwe_nonces WHERE nonce = $1', [nonce]);
  if (!row) return 'The nonce is not known: request a new one';
  if (row.used_at) return 'This nonce was already used: request a new one';
  if (new Date(row.expires_at).getTime() <= now.getTime()) return 'The nonce has expired: request a new one';
  if (row.address !== address.toLowerCase()) return 'The nonce was issued to another address';
  return null;
}

export const siweHandlers: Handlers = {
  getSiweAllowedChains: async ({ services }) => services.config.ALLOWED_CHAINS,

  async getSiweNonce({ input, services }: RequestContext<z.infer<typeof nonceQuery>>) {
    const nonce = generateSiweNonce();
    const now = services.now();
    await services.db.query('INSERT INTO siwe_nonces (nonce, address, expires_at) VALUES ($1, $2, $3)', [
      nonce,
      input.signerAddress.toLowerCase(),
      new Date(now.getTime() + SIWE_NONCE_TTL_S * 1000).toISOString(),
    ]);
    // Now and then, forget nonces that can no longer be used; nothing depends on when.
    if (Math.random() < 0.05) await services.db.query('DELETE FROM siwe_nonces WHERE expires_at < $1', [now.toISOString()]);
    return { valid: true, nonce };
  },

  // The answer's shape has no room for an error, so a bad query is a 400 on the field at fault.
  async prepareSiweMessage({ input, services }: RequestContext<z.infer<typeof messageQuery>>) {
    const now = services.now();
    const allowed = services.config.ALLOWED_CHAINS;
    if (!allowed.includes(input.chainId)) {
      throw invalidInput({ chainId: [`Chain ${input.chainId} is not allowed for sign-in: use one of ${allowed.join(', ')}`] });
    }
    const problem = await nonceProblem(services, input.nonce, input.signerAddress, now);
    if (problem) throw invalidInput({ nonce: [problem] });
    const message: SiweMessage = {
      address: getAddress(input.signerAddress),
      chainId: input.chainId,
      domain: services.config.SIWE_DOMAIN,
      uri: uriOf(services),
      nonce: input.nonce,
      statement: SIWE_STATEMENT,
      version: '1',
      issuedAt: now.toISOString(),
      expirationTime: new Date(now.getTime() + SIWE_NONCE_TTL_S * 1000).toISOString(),
    };
    return { valid: true, message, messageString: messageString(message) };
  },

  // Failures answer 200 {valid: false, error}: the contract's shape for this call (see the report).
  async verifySiwe({ input, services }: RequestContext<z.infer<typeof verifyInput>>) {
    const invalid = (error: string) => ({ valid: false as const, error });
    const { message, address } = input;
    const now = services.now();
    const config = services.config;
    if (message.address.toLowerCase() !== address.toLowerCase()) return invalid('The message names another address than the one signing in');
    if (message.domain !== config.SIWE_DOMAIN) return invalid(`The message is for ${message.domain}, but this service signs in ${config.SIWE_DOMAIN}`);
    if (message.uri !== uriOf(services)) return invalid(`The message's URI must be ${uriOf(services)}`);
    if (message.statement !== SIWE_STATEMENT) return invalid(`The message's statement must be "${SIWE_STATEMENT}"`);
    if (!config.ALLOWED_CHAINS.includes(message.chainId)) {
      return invalid(`Chain ${message.chainId} is not allowed for sign-in: use one of ${config.ALLOWED_CHAINS.join(', ')}`);
    }
    const issuedAt = new Date(message.issuedAt).getTime();
    const expiresAt = new Date(message.expirationTime).getTime();
    if (issuedAt > now.getTime() + CLOCK_SKEW_MS) return invalid('The message was issued in the future: check the device clock');
    if (expiresAt <= now.getTime()) return invalid('The message has expired: sign in again');
    if (expiresAt - issuedAt > SIWE_NONCE_TTL_S * 1000) return invalid(`A message may be valid for at most ${SIWE_NONCE_TTL_S} seconds`);
    const problem = await nonceProblem(services, message.nonce, address, now);
    if (problem) return invalid(problem);

    let text: string;
    try {
      text = messageString(message);
    } catch (error) {
      return invalid(`The message is not a valid EIP-4361 message: ${(error as Error).message.split('\n')[0]}`);
    }
    let signed = false;
    try {
      signed = (await recoverSigner(hashMessage(text), input.signature as Hex)) === getAddress(address).toLowerCase();
    } catch {
      signed = false;
    }
    if (!signed) {
      const verifier = services.contractSignatures;
      if (!verifier) return invalid(`The signature does not match ${address}, and as a contract account it ${NO_CHAIN_MESSAGE}`);
      try {
        signed = await verifier.isValidSignature({ account: address, hash: hashMessage(text), signature: input.signature as Hex, chainId: message.chainId });
      } catch (error) {
        // A spent budget is a 429; a chain too slow to answer is a failed sign-in, never a 5xx.
        if (error instanceof DomainError) throw error;
        if (error instanceof SignatureCheckTimeout) return invalid(`The signature of ${address}, a contract account, ${TIMED_OUT_MESSAGE}`);
        signed = false;
      }
      if (!signed) return invalid(`The signature does not match ${address}`);
    }

    // Spend the nonce atomically: of two concurrent verifies, one wins.
    const spent = await services.db.query('UPDATE siwe_nonces SET used_at = $2 WHERE nonce = $1 AND used_at IS NULL RETURNING nonce', [
      message.nonce,
      now.toISOString(),
    ]);
    if (spent.length === 0) return invalid('This nonce was already used: request a new one');
    const session = await createSession(services.db, { address, chainId: message.chainId, now, ttlSeconds: config.SIWE_TOKEN_TTL_S });
    return { valid: true, token: session.token, chainId: message.chainId, createdAt: session.createdAt.toISOString(), maxAgeSeconds: config.SIWE_TOKEN_TTL_S };
  },
};
