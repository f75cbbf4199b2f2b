import { privateKeyToAccount } from 'viem/accounts';
import { hashTypedData, type Hex, type TypedDataDefinition } from 'viem';
import { operations, operationPath, type OperationId } from '#core/operations/index.ts';
import { buildEnvelope, envelopeTypedData } from '#core/eip712/envelope.ts';
import { TYPE_REGISTRY } from '#core/eip712/registry.ts';
import { chooseSigning } from '#core/eip712/signing-choice.ts';
import type { SigningDomain, TypesForMethod } from '#core/wire/eip712.ts';
import type { RunningService } from '../../server/service.ts';

/** Anvil's well-known development keys: test wallets only. */
export const TEST_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
] as const satisfies readonly Hex[];
export const addressOf = (key: Hex) => privateKeyToAccount(key).address;

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  query?: Record<string, string | number | string[] | undefined>;
  body?: unknown;
  rawBody?: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

/** A client of the service the way the dashboard is one: plain requests, SIWE sessions, signed envelopes. */
export function testClient(service: Pick<RunningService, 'baseUrl'> & { services: Pick<RunningService['services'], 'headers'> & Partial<Pick<RunningService['services'], 'now'>> }) {
  const h = service.services.headers;
  // Envelopes are stamped by the service's clock when the client has it (the test clock may have moved it).
  const stamp = () => (service.services.now ? Math.floor(service.services.now().getTime() / 1000) : undefined);

  async function call<T = any>(id: OperationId, options: CallOptions = {}): Promise<Reply<T>> {
    const op = operations[id];
    const url = new URL(service.baseUrl + operationPath(op.path, options.params));
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(v));
    }
    const hasBody = options.rawBody !== undefined || options.body !== undefined;
    const response = await fetch(url, {
      method: op.method,
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...options.headers },
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }

  // What a client asks the service once per session: its signing domain, and each operation's types.
  let domain: SigningDomain | undefined;
  const typesByMethod = new Map<string, TypesForMethod>();
  async function signingDomain(): Promise<SigningDomain> {
    if (domain) return domain;
    const reply = await call<SigningDomain>('getEip712Domain');
    if (reply.status !== 200) throw new Error(`eip712 domain: ${reply.status}`);
    return (domain = reply.body);
  }
  async function typesFor(id: OperationId): Promise<TypesForMethod> {
    const known = typesByMethod.get(id);
    if (known) return known;
    const reply = await call<TypesForMethod>('getEip712TypesForMethod', { query: { method: id } });
    if (reply.status !== 200) throw new Error(`types-for-method ${id}: ${reply.status}`);
    typesByMethod.set(id, reply.body);
    return reply.body;
  }
  /** The primary type the dashboard's own chooser picks for this payload. */
  async function chosenType(id: OperationId, payload: Record<string, unknown>): Promise<string> {
    const choice = chooseSigning(await typesFor(id), payload);
    if (choice.how !== 'signature') throw new Error(`${id} cannot be signed here: ${JSON.stringify(choice)}`);
    return choice.primaryType;
  }

  /** Signs `payload` for operation `id` as a client would: the service's domain, the chooser's type, project, build the envelope, sign, send. */
  async function signed<T = any>(
    key: Hex,
    id: OperationId,
    payload: Record<string, unknown>,
    options: {
      timestamp?: number;
      nonce?: string;
      primaryType?: string;
      /** Another signing domain than the service's (a signature made for production, say). */
      domain?: SigningDomain;
      signer?: string;
      headers?: Record<string, string>;
      tamper?: (e: any) => any;
      /** Turns the key's signature into what the request sends (a smart account's wrapping, say). */
      wrapSignature?: (signature: Hex) => Hex;
      /** Signs the envelope's EIP-712 digest instead of the key (a Safe's owners sign a SafeMessage of it, say). */
      signDigest?: (digest: Hex) => Promise<Hex>;
      /** Signs the envelope's typed data as a smart account's wallet does (ERC-7739 nesting by a Solady account, say). */
      signTypedData?: (typed: TypedDataDefinition) => Promise<Hex>;
    } = {},
  ): Promise<Reply<T>> {
    const account = privateKeyToAccount(key);
    const primaryType = options.primaryType ?? (await chosenType(id, payload));
    const envelope = buildEnvelope(primaryType, payload, { timestamp: options.timestamp ?? stamp(), nonce: options.nonce });
    // A primary type the operation does not accept (to see it refused) is signed with the full registry.
    const published = (await typesFor(id)).types;
    const types = Object.hasOwn(published, primaryType) ? published : TYPE_REGISTRY;
    const typed = envelopeTypedData(options.domain ?? (await signingDomain()), types, primaryType, envelope);
    const keySignature = options.signTypedData
      ? await options.signTypedData(typed as never)
      : options.signDigest
        ? await options.signDigest(hashTypedData(typed as never))
        : await account.signTypedData(typed as never);
    const signature = options.wrapSignature ? options.wrapSignature(keySignature) : keySignature;
    const body = options.tamper ? options.tamper(structuredClone(envelope)) : envelope;
    return call<T>(id, {
      body,
      headers: {
        [h.signer]: options.signer ?? account.address,
        [h.signature]: signature,
        [h.eip712Type]: primaryType,
        ...options.headers,
      },
    });
  }

  /**
   * SIWE through the real endpoints as `address`, the message text signed by `signMessage` (a key, or a contract
   * account's own signing): answers the verify body, valid or not.
   */
  async function signInAs(address: string, signMessage: (text: string) => Promise<Hex>, chainId = 31337) {
    const nonce = await call('getSiweNonce', { query: { signerAddress: address } });
    if (!nonce.body?.valid) throw new Error(`nonce: ${JSON.stringify(nonce.body)}`);
    const prepared = await call('prepareSiweMessage', { query: { signerAddress: address, nonce: nonce.body.nonce, chainId } });
    if (prepared.status !== 200) throw new Error(`message: ${JSON.stringify(prepared.body)}`);
    const signature = await signMessage(prepared.body.messageString);
    return (await call('verifySiwe', { body: { address, message: prepared.body.message, signature } })).body;
  }

  /** A SIWE session of a key; returns the token. */
  async function signIn(key: Hex, chainId = 31337): Promise<string> {
    const account = privateKeyToAccount(key);
    const verified = await signInAs(account.address, (message) => account.signMessage({ message }), chainId);
    if (!verified?.valid) throw new Error(`verify: ${JSON.stringify(verified)}`);
    return verified.token;
  }

  const withToken = (token: string) => ({ [h.siweToken]: token });
  const withApiKey = (apiKey: string) => ({ [h.apiKey]: apiKey });

  return { call, signed, signIn, signInAs, withToken, withApiKey, signingDomain, headers: h };
}
export type TestClient = ReturnType<typeof testClient>;
