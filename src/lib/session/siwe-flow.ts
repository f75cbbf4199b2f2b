import type { OperationId, OperationOutput } from '#core/operations/index.ts';
import { ApiError } from '../api-error.ts';
import { retryWithBackoff } from '../retry.ts';
import { SiweMessageMismatchError, otherSignInHost, siweMessageProblems } from './siwe-message.ts';
import type { MessageResult, SiweMessage } from '#core/wire/siwe.ts';

/** The API call the flow is given (apiCall); only the parts of its arguments the flow uses, so session needs nothing from lib/api. */
type Call = <K extends OperationId>(id: K, args?: { query?: Record<string, unknown>; body?: unknown }) => Promise<OperationOutput<K>>;

export class SiweUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SiweUnavailableError';
  }
}

/** The service answered the signed message with valid:false; `reason` is its words. */
export class SiweRefusedError extends SiweUnavailableError {
  reason: string;
  constructor(reason: string) {
    super(`The service did not accept the signature: ${reason}`);
    this.name = 'SiweRefusedError';
    this.reason = reason;
  }
}

export class ChainNotAllowedError extends Error {
  chainId: number;
  allowed: number[];
  constructor(chainId: number, allowed: number[]) {
    super(`This service does not accept sign-in on chain ${chainId}`);
    this.name = 'ChainNotAllowedError';
    this.chainId = chainId;
    this.allowed = allowed;
  }
}

/**
 * Whether RainbowKit's nonce can serve the next message: a nonce serves one message only, and only for the
 * address it was issued to (the account signing in, which changes with the delegated-account setting).
 */
export function canReuseNonce(nonce: string, state: { used: ReadonlySet<string>; issuedTo: ReadonlyMap<string, string> }, account: string): boolean {
  const issuedTo = state.issuedTo.get(nonce);
  return !state.used.has(nonce) && !!issuedTo && issuedTo.toLowerCase() === account.toLowerCase();
}

export async function fetchNonce(call: Call, address: string): Promise<string> {
  const result = await call('getSiweNonce', { query: { signerAddress: address } });
  if (!result.valid) throw new SiweUnavailableError(`The service refused a sign-in nonce: ${result.error}`);
  return result.nonce;
}

/**
 * Asks the service for the message to sign. Production sometimes answers 500 here, so a server error
 * or a dropped connection is retried with backoff; after that the person is told what happened.
 */
export async function prepareMessage(
  call: Call,
  args: { address: string; nonce: string; chainId: number; expectedDomain: string },
  retry: { retries?: number; baseDelayMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<MessageResult> {
  let result: MessageResult;
  try {
    result = await retryWithBackoff(
      () => call('prepareSiweMessage', { query: { signerAddress: args.address, nonce: args.nonce, chainId: args.chainId } }),
      {
        retries: retry.retries ?? 3,
        baseDelayMs: retry.baseDelayMs ?? 500,
        sleep: retry.sleep,
        shouldRetry: (error) => error instanceof ApiError && (error.status >= 500 || error.status === 0),
      },
    );
  } catch (error) {
    if (error instanceof ApiError && (error.status >= 500 || error.status === 0)) {
      throw new SiweUnavailableError(
        'The service could not prepare a sign-in message after several tries. Nothing was signed; please try again in a minute.',
        { cause: error },
      );
    }
    throw error;
  }
  if (!result.valid) throw new SiweUnavailableError('The service did not prepare a valid sign-in message.');
  const problems = siweMessageProblems(result, {
    address: args.address,
    nonce: args.nonce,
    chainId: args.chainId,
    domain: args.expectedDomain,
  });
  if (problems.length > 0) throw new SiweMessageMismatchError(problems, otherSignInHost(result, { domain: args.expectedDomain }));
  return result;
}

export interface VerifiedSession {
  token: string;
  chainId: number;
  expiresAt: number;
}

export async function verifySignature(
  call: Call,
  args: { address: string; message: SiweMessage; signature: string },
  offsetMs = 0,
): Promise<VerifiedSession> {
  const result = await call('verifySiwe', { body: args });
  if (!result.valid) throw new SiweRefusedError(result.error);
  const created = Date.parse(result.createdAt);
  // The service's time on this device's clock (a local test clock may run ahead of it by offsetMs).
  const start = Number.isNaN(created) ? Date.now() : created - offsetMs;
  return { token: result.token, chainId: result.chainId, expiresAt: start + result.maxAgeSeconds * 1000 };
}
