import fc from 'fast-check';
import { authorizationTypes } from '@x402/evm';
import { privateKeyToAccount } from 'viem/accounts';
import { getAddress, serializeErc6492Signature, type Address, type Hex } from 'viem';
import type { Operation, OperationId } from '#core/operations/index.ts';
import { buildEnvelope, envelopeTypedData, randomNonce } from '#core/eip712/envelope.ts';
import { ACCEPTED_PRIMARY_TYPES, TYPE_REGISTRY } from '#core/eip712/registry.ts';
import type { SigningDomain } from '#core/wire/eip712.ts';
import { errorBody } from '#core/wire/errors.ts';
import type { TestService } from '../support/test-service.ts';
import type { TestClient } from '../support/client.ts';
import { PAYMENT_SIGNATURE, PAYMENT_SIGNATURE_ALIAS } from '../../server/x402/headers.ts';
import { erc6492Signature } from '../chain/accounts.ts';
import { hostileNumeric, hostileNumber, hostileString, hostileValue, mutated, RawJson, sampleOf, toJsonText, type Mutation } from './arbitraries.ts';
import { changedTables, digest } from './database-digest.ts';

/**
 * Cases for the operations of the table: every auth form, hostile inputs derived from the operation's zod schema;
 * with a chain, also contract-account signatures (ERC-1271, ERC-6492, delegated-account headers) and x402 payments.
 * Properties: never a 5xx; every 4xx carries the error body; after any 4xx the database is unchanged.
 */

const URL_VALUE_LIMIT = 2000;

/** What the service and the test set up before the fuzz: the wallets, tokens and names the cases use. */
export interface World {
  service: TestService;
  client: TestClient;
  ownerKey: Hex;
  owner: Address;
  /** The signing domain the service publishes (GET /eip712/domain): what a client signs under. */
  domain: SigningDomain;
  zone: string;
  freeName: string;
  siweToken: string;
  apiKey: string;
  recordId: string;
  keyId: string;
  digestSql: string;
  chain?: ChainWorld;
}

/** With CHAIN=anvil: contract accounts of the owner, and what an x402 payment is built from. */
export interface ChainWorld {
  /** The owner's deployed smart account, which owns `accountZone`. */
  account: Address;
  accountZone: string;
  /** The owner's account at `counterfactualSalt`, never deployed: it signs with ERC-6492. */
  counterfactual: Address;
  counterfactualSalt: Hex;
  factory: Address;
  /** Addresses a forged contract signature names: the accounts, contracts with other code, an EOA, zero. */
  addresses: Address[];
  x402: {
    /** The requirements of a 402 for a .com name for one year (what a client would accept). */
    accepted: Record<string, unknown>;
    payerKey: Hex;
    payer: Address;
    usdDomain: { name: string; version: string; chainId: number; verifyingContract: Address };
    /** Names still free, for payments that could succeed. */
    freeNames: string[];
  };
}

type AuthForm =
  | 'none'
  | 'api-key'
  | 'api-key-envelope'
  | 'api-key-invented'
  | 'api-key-garbage'
  | 'siwe'
  | 'siwe-invented'
  | 'eip712-random-signature'
  | 'eip712-garbage'
  | 'eip712-signed'
  | 'erc1271-signed'
  | 'erc1271-forged'
  | 'erc6492-signed'
  | 'erc6492-forged'
  | 'delegated-signed'
  | 'delegated-forged';

const AUTH_WEIGHTS: Record<AuthForm, number> = {
  none: 2,
  'api-key': 2,
  'api-key-envelope': 1,
  'api-key-invented': 1,
  'api-key-garbage': 1,
  siwe: 2,
  'siwe-invented': 1,
  'eip712-random-signature': 2,
  'eip712-garbage': 1,
  'eip712-signed': 4,
  'erc1271-signed': 2,
  'erc1271-forged': 2,
  'erc6492-signed': 2,
  'erc6492-forged': 2,
  'delegated-signed': 2,
  'delegated-forged': 2,
};
const CHAIN_ONLY = new Set<AuthForm>(['erc1271-signed', 'erc1271-forged', 'erc6492-signed', 'erc6492-forged', 'delegated-signed', 'delegated-forged']);

/** Printable ASCII: what a header value can carry at all (fetch refuses the rest before sending). */
const headerGarbage = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });
const hexOf = (bytes: Uint8Array | number[]) => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}` as Hex;
const bytesHex = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map(hexOf);

/** A forged contract signature: random bytes, or an ERC-6492 wrapping of a factory and calldata of the attacker's choosing. */
interface Forgery {
  /** Index into the world's addresses: the signer or delegated account named. */
  account: number;
  /** Random bytes of any length, as hex. */
  bytes: Hex;
  factory: number;
  factoryData: Hex;
  /** Which delegated-account header carries the account. */
  header: 'eip7702Account' | 'erc1271Account' | 'eip1271Account';
  /** The delegated header's value is garbage instead of an address. */
  garbageAccount: boolean;
  /** An ERC-6492 wrapping holds the owner's real signature rather than the random bytes. */
  ownerInner: boolean;
}

/** An x402 payment header: absent, garbage, random base64, or a payload shaped like one (signed or not), mutated. */
interface Payment {
  header: string;
  kind: 'none' | 'garbage' | 'bytes' | 'json' | 'structured' | 'signed';
  value: unknown;
  mutation: Mutation | null;
  nonce: Hex;
  randomSignature: Hex;
  /** The validBefore the payer meant to sign (the unmutated one). */
  validBefore: string;
}

export interface Case {
  auth: AuthForm;
  payload: unknown;
  mutation: Mutation;
  nonce: string;
  timestamp: unknown;
  params: Record<string, string>;
  garbage: string;
  randomSignature: string;
  forgery: Forgery;
  payment: Payment;
}

/** Valid-looking values by field name; variants put hostile data behind different record types and zones. */
function samplesFor(world: World, id: OperationId): Array<Record<string, unknown>> {
  const common = {
    zoneName: world.zone,
    normalizedDomainName: id.startsWith('register') ? world.freeName : world.zone,
    id: world.recordId,
    recordsIds: [world.recordId],
    ttl: 300,
    durationInYears: 1,
    walletAddress: world.owner,
    signerAddress: world.owner,
    address: world.owner,
    chainId: 31337,
    label: 'fuzz label',
    domain: world.freeName,
    domains: [world.freeName],
    query: 'coffee',
    method: 'createDnsRecord',
    nonce: 'abcdefgh1234',
    signature: '0x1234',
  };
  const variants = [
    { ...common, type: 'TXT', name: 'fuzz', rdata: '"fuzz"' },
    { ...common, type: 'CNAME', name: 'alias', rdata: 'target.example.net.' },
    { ...common, type: 'MX', name: '@', rdata: '10 mail.example.net.' },
  ];
  // With a chain, the smart account's own zone: where its valid signatures reach the database.
  const chain = world.chain;
  if (chain) variants.push({ ...common, zoneName: chain.accountZone, normalizedDomainName: id.startsWith('register') ? world.freeName : chain.accountZone, type: 'A', name: 'www', rdata: '192.0.2.7' });
  return variants;
}

function basesOf(world: World, id: OperationId, operation: Operation): unknown[] {
  if (id === 'registerDomainX402' && world.chain) return [{ durationInYears: 1 }, { durationInYears: '1', nftReceivingWalletAddress: world.chain.x402.payer }];
  return operation.input ? samplesFor(world, id).map((samples) => sampleOf(operation.input!, samples)) : [{}];
}

const PAYMENT_NONCE = `0x${'0'.repeat(63)}1`;
const PAYMENT_SIGNATURE_PLACEHOLDER = `0x${'0'.repeat(129)}1`;

function paymentArbitrary(world: World): fc.Arbitrary<Payment> {
  const chain = world.chain;
  const header = fc.constantFrom(PAYMENT_SIGNATURE, PAYMENT_SIGNATURE_ALIAS);
  const nonce = bytesHex(32, 32);
  const randomSignature = bytesHex(65, 65);
  const none = fc.record({ header, nonce, randomSignature, validBefore: fc.constant('0'), kind: fc.constant('none' as const), value: fc.constant(null), mutation: fc.constant(null) });
  if (!chain) return none;
  const validBefore = String(Math.floor(Date.now() / 1000) + 280);
  const base = {
    x402Version: 2,
    accepted: chain.x402.accepted,
    payload: {
      authorization: { from: chain.x402.payer, to: chain.x402.accepted.payTo, value: chain.x402.accepted.amount, validAfter: '0', validBefore, nonce: PAYMENT_NONCE },
      signature: PAYMENT_SIGNATURE_PLACEHOLDER,
    },
  };
  const shaped = (kind: 'structured' | 'signed') =>
    fc.record({ header, nonce, randomSignature, change: mutated(base) }).map(({ change, ...rest }) => ({ ...rest, kind, validBefore, value: change.payload, mutation: change.mutation }));
  return fc.oneof(
    { weight: 2, arbitrary: none },
    { weight: 1, arbitrary: fc.record({ header, nonce, randomSignature, validBefore: fc.constant('0'), kind: fc.constant('garbage' as const), value: headerGarbage, mutation: fc.constant(null) }) },
    { weight: 1, arbitrary: fc.record({ header, nonce, randomSignature, validBefore: fc.constant('0'), kind: fc.constant('bytes' as const), value: fc.uint8Array({ maxLength: 300 }), mutation: fc.constant(null) }) },
    { weight: 1, arbitrary: fc.record({ header, nonce, randomSignature, validBefore: fc.constant('0'), kind: fc.constant('json' as const), value: fc.oneof(hostileValue, fc.jsonValue({ maxDepth: 3 })), mutation: fc.constant(null) }) },
    { weight: 3, arbitrary: shaped('structured') },
    { weight: 3, arbitrary: shaped('signed') },
  );
}

export function caseArbitrary(world: World, id: OperationId, operation: Operation): fc.Arbitrary<Case> {
  const bases = basesOf(world, id, operation);
  const fresh = world.chain?.x402.freeNames ?? [];
  // A payment is checked only for a name that can be bought, with a query that reads: with a chain, x402 cases
  // mostly ask for a free name as a wallet would, so that their hostility is in the payment.
  const paying = id === 'registerDomainX402' && world.chain !== undefined;
  const paramValue = fc.oneof(
    { weight: paying ? 8 : 1, arbitrary: fc.constantFrom(world.recordId, world.keyId, crypto.randomUUID(), 'constructor', '__proto__', world.zone, world.freeName, ...fresh) },
    { weight: 1, arbitrary: hostileString.map((s) => s.slice(0, URL_VALUE_LIMIT)) },
  );
  const params = Object.fromEntries((operation.params ? Object.keys(operation.params.shape) : []).map((key) => [key, paramValue]));
  const now = Math.floor(Date.now() / 1000);
  const mutatedPayloads = fc.constantFrom(...bases).chain((base) => mutated(base));
  const payloads = paying
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...bases).map((payload) => ({ payload, mutation: { kind: 'valid', path: '' } })) }, { weight: 1, arbitrary: mutatedPayloads })
    : mutatedPayloads;
  const forms = (Object.keys(AUTH_WEIGHTS) as AuthForm[]).filter((form) => world.chain || !CHAIN_ONLY.has(form));
  const weightOf = (form: AuthForm) => (paying ? (form === 'none' || form === 'siwe' ? 10 : 1) : AUTH_WEIGHTS[form]);
  const addressCount = world.chain?.addresses.length ?? 1;
  return fc
    .record({
      // Weighted towards the forms that get past authentication, where input reaches the database.
      auth: fc.oneof(...forms.map((form) => ({ weight: weightOf(form), arbitrary: fc.constant(form) }))),
      change: payloads,
      nonce: fc.oneof({ weight: 2, arbitrary: fc.constant('') }, { weight: 1, arbitrary: hostileString }),
      timestamp: fc.oneof({ weight: 6, arbitrary: fc.constant<unknown>(now) }, { weight: 1, arbitrary: hostileNumber }, { weight: 1, arbitrary: hostileNumeric }),
      params: fc.record(params) as fc.Arbitrary<Record<string, string>>,
      garbage: headerGarbage,
      randomSignature: bytesHex(65, 65),
      forgery: fc.record({
        account: fc.nat({ max: addressCount - 1 }),
        bytes: fc.oneof(bytesHex(0, 200), bytesHex(65, 65)),
        factory: fc.nat({ max: addressCount - 1 }),
        factoryData: fc.oneof(bytesHex(0, 100), bytesHex(4, 4)),
        header: fc.constantFrom('eip7702Account' as const, 'erc1271Account' as const, 'eip1271Account' as const),
        garbageAccount: fc.boolean(),
        ownerInner: fc.boolean(),
      }),
      payment: id === 'registerDomainX402' ? paymentArbitrary(world) : fc.constant<Payment>({ header: PAYMENT_SIGNATURE, kind: 'none', value: null, mutation: null, nonce: '0x', randomSignature: '0x', validBefore: '0' }),
    })
    .map(({ change, ...rest }) => ({ ...rest, ...change }));
}

interface Built {
  url: URL;
  init: RequestInit;
}

async function paymentHeader(world: World, payment: Payment): Promise<string | null> {
  const x402 = world.chain?.x402;
  switch (payment.kind) {
    case 'none':
      return null;
    case 'garbage':
      return payment.value as string;
    case 'bytes':
      return Buffer.from(payment.value as Uint8Array).toString('base64');
    case 'json':
      return Buffer.from(toJsonText(payment.value)).toString('base64');
    case 'structured':
    case 'signed': {
      // Each case its own authorization nonce, so one purchase does not make every later one a replay.
      const text = toJsonText(payment.value).replaceAll(PAYMENT_NONCE, payment.nonce);
      let signature = payment.randomSignature;
      if (payment.kind === 'signed' && x402) {
        const account = privateKeyToAccount(x402.payerKey);
        // The payer signs what it meant to send; a mutation after that is a relay's change (or a valid purchase when none).
        signature = await account
          .signTypedData({
            domain: x402.usdDomain,
            types: authorizationTypes,
            primaryType: 'TransferWithAuthorization',
            message: {
              from: x402.payer,
              to: getAddress(String(x402.accepted.payTo)),
              value: BigInt(String(x402.accepted.amount)),
              validAfter: 0n,
              validBefore: BigInt(payment.validBefore),
              nonce: payment.nonce,
            },
          })
          .catch(() => signature);
      }
      return Buffer.from(text.replaceAll(PAYMENT_SIGNATURE_PLACEHOLDER, signature)).toString('base64');
    }
  }
}

async function build(world: World, id: OperationId, operation: Operation, c: Case): Promise<Built> {
  const { client, service } = world;
  const h = client.headers;
  const url = new URL(service.baseUrl + operation.path.replace(/\{(\w+)\}/g, (_, key: string) => encodePathValue(c.params[key] ?? '')));
  const headers: Record<string, string> = {};
  const primaryType = ACCEPTED_PRIMARY_TYPES[id]?.[0] ?? 'CreateDnsRecordEnvelope';
  const payloadRecord = c.payload !== null && typeof c.payload === 'object' && !Array.isArray(c.payload) && !(c.payload instanceof RawJson);
  const envelope = buildEnvelope(primaryType, (payloadRecord ? c.payload : {}) as Record<string, unknown>, {
    timestamp: c.timestamp as number,
    nonce: c.nonce || randomNonce(),
  });
  if (!payloadRecord) envelope.payload = c.payload as Record<string, unknown>;
  // The owner's own signature over the envelope; one the shared projection cannot even hash goes out random.
  const ownerSignature = async (): Promise<Hex> => {
    try {
      return await privateKeyToAccount(world.ownerKey).signTypedData(envelopeTypedData(world.domain, TYPE_REGISTRY, primaryType, envelope) as never);
    } catch {
      return c.randomSignature as Hex;
    }
  };
  const chain = world.chain;
  const named = chain ? chain.addresses[c.forgery.account] : world.owner;
  const forged6492 = (inner: string) =>
    serializeErc6492Signature({ address: chain ? chain.addresses[c.forgery.factory] : world.owner, data: c.forgery.factoryData, signature: inner as Hex });
  let body: unknown = c.payload;
  const sign = (signer: string, signature: string, type = primaryType) => {
    Object.assign(headers, { [h.signer]: signer, [h.signature]: signature, [h.eip712Type]: type });
    body = envelope;
  };
  switch (c.auth) {
    case 'none':
      break;
    case 'api-key':
      headers[h.apiKey] = world.apiKey;
      break;
    case 'api-key-envelope':
      headers[h.apiKey] = world.apiKey;
      body = envelope;
      break;
    case 'api-key-invented':
      headers[h.apiKey] = `nfk_${c.randomSignature.slice(2, 45).padEnd(43, 'A')}`;
      break;
    case 'api-key-garbage':
      headers[h.apiKey] = c.garbage;
      break;
    case 'siwe':
      headers[h.siweToken] = world.siweToken;
      break;
    case 'siwe-invented':
      headers[h.siweToken] = c.garbage || 'invented';
      break;
    case 'eip712-random-signature':
      sign(world.owner, c.randomSignature);
      break;
    case 'eip712-garbage':
      sign(c.garbage, `0x${c.garbage}`, c.garbage);
      break;
    case 'eip712-signed':
      sign(world.owner, await ownerSignature());
      break;
    case 'erc1271-signed':
      sign(chain!.account, await ownerSignature());
      break;
    case 'erc1271-forged':
      sign(named, c.forgery.bytes);
      break;
    case 'erc6492-signed':
      sign(chain!.counterfactual, erc6492Signature({ accountFactory: chain!.factory }, world.owner, await ownerSignature(), chain!.counterfactualSalt));
      break;
    case 'erc6492-forged': {
      // Attacker-chosen factory and calldata around the owner's signature or random bytes: the service must not 5xx.
      const inner = c.forgery.ownerInner ? await ownerSignature() : c.forgery.bytes;
      sign(named, forged6492(inner));
      break;
    }
    case 'delegated-signed':
      sign(world.owner, await ownerSignature());
      headers[h[c.forgery.header]] = chain!.account;
      break;
    case 'delegated-forged':
      sign(world.owner, await ownerSignature());
      headers[h[c.forgery.header]] = c.forgery.garbageAccount ? c.garbage : named;
      break;
  }
  const payment = await paymentHeader(world, c.payment);
  if (payment !== null) headers[c.payment.header] = payment;
  if (operation.method === 'GET') {
    addQuery(url, c.payload);
    return { url, init: { method: 'GET', headers } };
  }
  headers['content-type'] = 'application/json';
  return { url, init: { method: operation.method, headers, body: toJsonText(body) } };
}

/** Like encodeURIComponent, but a lone surrogate goes out as its raw (invalid UTF-8) bytes instead of throwing. */
function encodePathValue(value: string): string {
  return Array.from(value, (ch) => {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
    return encodeURIComponent(ch);
  }).join('');
}

/** A GET payload as query parameters: arrays repeat, anything else is its text, kept short enough for a URL. */
function addQuery(url: URL, payload: unknown) {
  if (payload === null || typeof payload !== 'object' || payload instanceof RawJson || Array.isArray(payload)) {
    url.searchParams.append('payload', String(payload instanceof RawJson ? payload.toText() : toJsonText(payload)).slice(0, URL_VALUE_LIMIT));
    return;
  }
  const text = (v: unknown) => (typeof v === 'string' ? v : toJsonText(v)).slice(0, URL_VALUE_LIMIT);
  for (const [key, value] of Object.entries(payload)) {
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, text(v));
  }
}

const PENDING_SQL = "SELECT count(*)::int AS n FROM orders WHERE status IN ('CREATED', 'PROCESSING')";

/** An accepted order goes on changing the database in the background: wait for it, so the next digest is stable. */
async function settle(world: World) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [{ n }] = await world.service.services.db.query<{ n: number }>(PENDING_SQL);
    if (n === 0) return;
    if (Date.now() > deadline) throw new Error(`${n} orders still pending after 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Checks a 4xx answer: a JSON error body whose status is the answer's. Answers what is wrong, or null. */
export function errorBodyProblem(status: number, text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `${status} without a JSON body: ${text.slice(0, 200)}`;
  }
  const shape = errorBody.strict().safeParse(parsed);
  if (!shape.success) return `${status} body is not {defined, code, status, message, data?}: ${text.slice(0, 200)}`;
  if (shape.data.status !== status) return `${status} body says status ${shape.data.status}`;
  return null;
}

/** What the run is told of each case: each answer (for FUZZ_ANSWERS). */
export interface CaseReport {
  answered(answer: string): void;
}

/** Sends one case and answers what is wrong with the reply, or null. */
export async function runCase(world: World, id: OperationId, operation: Operation, c: Case, report: CaseReport): Promise<string | null> {
  const { url, init } = await build(world, id, operation, c);
  const db = world.service.services.db;
  const before = await digest(db, world.digestSql);
  let status: number;
  let text: string;
  try {
    const response = await fetch(url, init);
    status = response.status;
    text = await response.text();
  } catch (error) {
    return `request failed: ${(error as Error).message} ${(error as { cause?: Error }).cause?.message ?? ''}`;
  }
  report.answered(`${c.auth}${c.payment.kind === 'none' ? '' : `+payment-${c.payment.kind}`}→${status}`);
  if (status >= 500) return `${status}: ${text.slice(0, 300)}`;
  if (status >= 400) {
    const problem = errorBodyProblem(status, text);
    if (problem) return problem;
    const changed = changedTables(before, await digest(db, world.digestSql));
    if (changed.length > 0) return `${status} changed ${changed.join(', ')}: ${text.slice(0, 200)}`;
  } else {
    await settle(world);
  }
  return null;
}

export function describeCase(id: string, c: Case): string {
  const payload = toJsonText(c.payload);
  const payment = c.payment.kind === 'none' ? '' : ` payment=${c.payment.kind}${c.payment.mutation ? `:${c.payment.mutation.kind}:${c.payment.mutation.path}` : ''}`;
  return `${id} auth=${c.auth}${payment} ${c.mutation.kind}:${c.mutation.path} params=${JSON.stringify(c.params).slice(0, 80)} nonce=${JSON.stringify(c.nonce.slice(0, 20))} ts=${toJsonText(c.timestamp).slice(0, 40)} payload=${payload.slice(0, 200)}${payload.length > 200 ? `…(${payload.length})` : ''}`;
}
