import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { operations, type OperationId, type OperationOutput } from '#core/operations/index.ts';
import { serviceHeaders, DEFAULT_HEADER_PREFIX } from '#core/headers.ts';
import { isTerminal } from '#core/wire/orders.ts';
import { callOperation, type CallArgs } from '../../src/lib/api/client.ts';
import { signRequest } from '../../src/lib/signing/sign-request.ts';
import { API_URL } from './env.ts';

/**
 * A Node-side client of the real local service, for journeys to seed state the way a user would:
 * SIWE sign-in, the faucet, signed registrations. It signs with the same core envelope functions as the
 * dashboard, so a seeded write is one the service would accept from the browser.
 */
const h = serviceHeaders(DEFAULT_HEADER_PREFIX);

export function call<K extends OperationId>(id: K, args: CallArgs = {}, headers: Record<string, string> = {}): Promise<OperationOutput<K>> {
  return callOperation(id, args, { baseUrl: API_URL, headers });
}

export const withToken = (token: string) => ({ [h.siweToken]: token });

/** Signs in with SIWE as the key's address; returns the session token. */
export async function siweSignIn(privateKey: Hex, chainId = 31337): Promise<string> {
  return (await siweSession(privateKey, chainId)).token;
}

/** Signs in with SIWE as the key's address; returns the session as the dashboard keeps it (token, chain, end). */
export async function siweSession(privateKey: Hex, chainId = 31337): Promise<{ token: string; chainId: number; expiresAt: number }> {
  const account = privateKeyToAccount(privateKey);
  const nonce = await call('getSiweNonce', { query: { signerAddress: account.address } });
  if (!nonce.valid) throw new Error(`nonce refused: ${nonce.error}`);
  const prepared = await call('prepareSiweMessage', { query: { signerAddress: account.address, nonce: nonce.nonce, chainId } });
  const signature = await account.signMessage({ message: prepared.messageString });
  const verified = await call('verifySiwe', { body: { address: account.address, message: prepared.message, signature } });
  if (!verified.valid) throw new Error(`sign-in refused: ${verified.error}`);
  return { token: verified.token, chainId: verified.chainId, expiresAt: Date.parse(verified.createdAt) + verified.maxAgeSeconds * 1000 };
}

/** Tops up the wallet's test credit (100.00 per call on the local service). */
export function faucet(token: string) {
  return call('requestFaucet', { body: {} }, withToken(token));
}

/** Calls a write operation with an EIP-712 envelope signed by the key (plus `headers`, e.g. a delegated account). */
export async function signedCall<K extends OperationId>(
  privateKey: Hex,
  id: K,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<OperationOutput<K>> {
  const account = privateKeyToAccount(privateKey);
  const [domain, typesForMethod] = await Promise.all([
    call('getEip712Domain'),
    call('getEip712TypesForMethod', { query: { method: id } }),
  ]);
  if (!operations[id]) throw new Error(`Unknown operation ${id}`);
  const signed = await signRequest({
    prefix: DEFAULT_HEADER_PREFIX,
    signer: account.address,
    domain,
    typesForMethod,
    payload,
    sign: (typed) => account.signTypedData(typed as Parameters<typeof account.signTypedData>[0]),
  });
  return call(id, { body: signed.body }, { ...signed.headers, ...headers });
}

/** Orders a registration signed by the key (default: one year, the NFT to the signer). */
export function registerDomain(privateKey: Hex, name: string, opts: { durationInYears?: number; records?: Array<{ name: string; type: string; rdata: string; ttl: number }> } = {}) {
  const payload = { normalizedDomainName: name, durationInYears: opts.durationInYears ?? 1 };
  return opts.records
    ? signedCall(privateKey, 'registerWithRecords', { ...payload, records: opts.records })
    : signedCall(privateKey, 'registerDomain', payload);
}

/** Polls the order until it reaches a terminal status (the service's worker moves it on). */
export async function waitForOrder(token: string, orderId: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const details = await call('getOrder', { params: { orderId } }, withToken(token));
    if (isTerminal(details.order.status)) return details;
    if (Date.now() > deadline) throw new Error(`Order ${orderId} still ${details.order.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Signs in, tops up, registers and waits: a domain the key owns, ready for a journey. */
export async function ownDomain(privateKey: Hex, name: string): Promise<{ token: string }> {
  const token = await siweSignIn(privateKey);
  await faucet(token);
  const order = await registerDomain(privateKey, name);
  const done = await waitForOrder(token, order.id);
  if (done.order.status !== 'SUCCEEDED') throw new Error(`Registering ${name} ended ${done.order.status}`);
  return { token };
}
