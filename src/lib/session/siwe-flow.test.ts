import { describe, expect, it } from 'vitest';
import { createSiweMessage } from 'viem/siwe';
import type { OperationId } from '#core/operations/index.ts';
import { ApiError } from '../api-error.ts';
import { backoffDelay } from '../retry.ts';
import { SiweMessageMismatchError } from './siwe-message.ts';
import { canReuseNonce, prepareMessage, SiweRefusedError, SiweUnavailableError, verifySignature } from './siwe-flow.ts';

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const args = { address, nonce: 'abcdef123456', chainId: 31337, expectedDomain: '127.0.0.1:5173' };

function messageFor(domain = '127.0.0.1:5173') {
  const issuedAt = new Date('2026-01-01T00:00:00.000Z');
  const expirationTime = new Date('2026-01-01T00:05:00.000Z');
  const message = { address, chainId: 31337, domain, uri: `http://${domain}`, nonce: args.nonce, statement: 'Sign in to Namefi API', version: '1' as const };
  return {
    valid: true,
    message: { ...message, issuedAt: issuedAt.toISOString(), expirationTime: expirationTime.toISOString() },
    messageString: createSiweMessage({ ...message, address, issuedAt, expirationTime }),
  };
}

const serverError = () => new ApiError({ status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Internal Server Error' });

/** A stand-in for the API client that answers prepareSiweMessage from a script. */
function scripted(outcomes: Array<() => unknown>) {
  const seen: OperationId[] = [];
  const call = (async (id: OperationId) => {
    seen.push(id);
    const next = outcomes.shift();
    if (!next) throw new Error('no more answers');
    return next();
  }) as never;
  return { call, seen };
}

describe('preparing the SIWE message', () => {
  it('retries a 500 with growing waits and then uses the message', async () => {
    const { call, seen } = scripted([() => { throw serverError(); }, () => { throw serverError(); }, () => messageFor()]);
    const waits: number[] = [];
    const result = await prepareMessage(call, args, { sleep: async (ms) => void waits.push(ms) });
    expect(result.message.nonce).toBe(args.nonce);
    expect(waits).toEqual([500, 1000]);
    expect(seen).toEqual(['prepareSiweMessage', 'prepareSiweMessage', 'prepareSiweMessage']);
  });

  it('after the last retry, explains that nothing was signed', async () => {
    const { call, seen } = scripted(Array.from({ length: 4 }, () => () => { throw serverError(); }));
    const error = await prepareMessage(call, args, { sleep: async () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SiweUnavailableError);
    expect((error as Error).message).toMatch(/after several tries\. Nothing was signed/);
    expect(seen).toHaveLength(4);
  });

  it('does not retry a refusal (400)', async () => {
    const refusal = new ApiError({ status: 400, code: 'BAD_REQUEST', message: 'Invalid input' });
    const { call, seen } = scripted([() => { throw refusal; }]);
    await expect(prepareMessage(call, args, { sleep: async () => {} })).rejects.toBe(refusal);
    expect(seen).toHaveLength(1);
  });

  it('refuses, before any signature, a message that names another site', async () => {
    const { call } = scripted([() => messageFor('evil.example')]);
    const error = await prepareMessage(call, args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SiweMessageMismatchError);
    expect((error as SiweMessageMismatchError).serviceDomain).toBe('evil.example');
  });

  it('names the host the service signs in for when only the host differs', async () => {
    const { call } = scripted([() => messageFor('localhost:5173')]);
    const error = await prepareMessage(call, args).catch((e: unknown) => e);
    expect((error as SiweMessageMismatchError).problems).toEqual(['it names localhost:5173 instead of 127.0.0.1:5173']);
    expect((error as SiweMessageMismatchError).serviceDomain).toBe('localhost:5173');
  });

  it('backs off exponentially up to a cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 500, 8000))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });
});

describe('verifying the signature', () => {
  it('turns the service session into a token with its expiry', async () => {
    const { call } = scripted([() => ({ valid: true, token: 't0k', chainId: 31337, createdAt: '2026-01-01T00:00:00.000Z', maxAgeSeconds: 43200 })]);
    const session = await verifySignature(call, { address, message: messageFor().message, signature: '0x00' });
    expect(session).toEqual({ token: 't0k', chainId: 31337, expiresAt: Date.parse('2026-01-01T12:00:00.000Z') });
  });

  it("says why when the service answers valid:false", async () => {
    const { call } = scripted([() => ({ valid: false, error: 'The signature does not match' })]);
    const error = await verifySignature(call, { address, message: messageFor().message, signature: '0x00' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SiweRefusedError);
    expect((error as SiweRefusedError).message).toBe('The service did not accept the signature: The signature does not match');
    // The service's own words stay apart, for callers that explain a refusal further (a delegated account).
    expect((error as SiweRefusedError).reason).toBe('The signature does not match');
  });
});

describe('reusing the nonce RainbowKit holds', () => {
  const account = '0x1234567890AbcdEF1234567890aBcdef1234abcd';
  it('serves one message, for the address it was issued to', () => {
    const issuedTo = new Map([['n1', address]]);
    expect(canReuseNonce('n1', { used: new Set(), issuedTo }, address.toLowerCase())).toBe(true);
    expect(canReuseNonce('n1', { used: new Set(['n1']), issuedTo }, address)).toBe(false);
    // Issued for the wallet, but the sign-in is now for a delegated account: a new nonce is needed.
    expect(canReuseNonce('n1', { used: new Set(), issuedTo }, account)).toBe(false);
    expect(canReuseNonce('unknown', { used: new Set(), issuedTo }, address)).toBe(false);
  });
});
