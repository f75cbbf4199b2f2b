import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { operations, type Operation, type OperationId } from '../../src/core/operations.ts';
import { buildEnvelope, envelopeTypedData, randomNonce } from '../../src/core/eip712/envelope.ts';
import { ACCEPTED_PRIMARY_TYPES, TYPE_REGISTRY } from '../../src/core/eip712/registry.ts';
import { signingDomain } from '../auth/signing-domain.ts';

import { errorBody } from '../../src/core/wire/errors.ts';
import { startTestService, type TestService } from '../test-support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../test-support/client.ts';
import { Deep, hostileNumber, hostileString, mutated, sampleOf, toJsonText, type Mutation } from './arbitraries.ts';
import { changedTables, digest, digestQuery } from './database-digest.ts';

/**
 * Issue 19, "No 5xx from any input": every operation of the table, every auth form, hostile inputs derived from
 * the operation's zod schema. Properties: never a 5xx; every 4xx carries the error body; after any 4xx the
 * database is unchanged. FUZZ_RUNS caps the inputs per operation and FUZZ_MS_PER_OPERATION its time (about 2–3
 * minutes in all on 2 cores; the count run is printed); FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const MS_PER_OPERATION = Number(process.env.FUZZ_MS_PER_OPERATION ?? 4500);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const [OWNER_KEY] = TEST_KEYS;
const OWNER = addressOf(OWNER_KEY);
const ZONE = 'fuzz-zone.com';
const FREE_NAME = 'fuzz-free.com';
const URL_VALUE_LIMIT = 2000;

let service: TestService;
let client: TestClient;
let siweToken: string;
let apiKey: string;
let recordId: string;
let keyId: string;
let digestSql: string;
const ran = new Map<string, number>();

beforeAll(async () => {
  // Rate limiting would answer 429 long before the fuzz is through; it has its own tests.
  service = await startTestService({ RATE_LIMIT_PER_MINUTE: '100000000' });
  client = testClient(service);
  await service.services.ownership.mint({ name: ZONE, to: OWNER, chainId: 31337, years: 1, now: new Date() });
  const unpark = await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: ZONE, enableParking: false, overrideExistingRecords: false });
  expect(unpark.status).toBe(200);
  const record = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, type: 'TXT', name: 'keep', rdata: '"kept"', ttl: 300 });
  expect(record.status).toBe(200);
  recordId = record.body.id;
  siweToken = await client.signIn(OWNER_KEY);
  const key = await client.call('createApiKey', { body: { label: 'fuzz' }, headers: client.withToken(siweToken) });
  expect(key.status).toBe(200);
  apiKey = key.body.key;
  keyId = key.body.id;
  digestSql = await digestQuery(service.services.db);
}, 120_000);

afterAll(async () => {
  const total = [...ran.values()].reduce((a, b) => a + b, 0);
  const counts = [...ran.values()];
  console.log(
    `no-5xx fuzz (seed ${SEED}): ${ran.size} operations × ${Math.min(...counts)}–${Math.max(...counts)} inputs each (at most ${RUNS}) = ${total} requests`,
  );
  await service?.destroy();
});

/** Valid-looking values by field name; variants put hostile data behind different record types. */
function samplesFor(id: OperationId): Array<Record<string, unknown>> {
  const common = {
    zoneName: ZONE,
    normalizedDomainName: id.startsWith('register') ? FREE_NAME : ZONE,
    id: recordId,
    recordsIds: [recordId],
    ttl: 300,
    durationInYears: 1,
    walletAddress: OWNER,
    signerAddress: OWNER,
    address: OWNER,
    chainId: 31337,
    label: 'fuzz label',
    domain: FREE_NAME,
    domains: [FREE_NAME],
    query: 'coffee',
    method: 'createDnsRecord',
    nonce: 'abcdefgh1234',
    signature: '0x1234',
  };
  return [
    { ...common, type: 'TXT', name: 'fuzz', rdata: '"fuzz"' },
    { ...common, type: 'CNAME', name: 'alias', rdata: 'target.example.net.' },
    { ...common, type: 'MX', name: '@', rdata: '10 mail.example.net.' },
  ];
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
  | 'eip712-signed';
const AUTH_FORMS: AuthForm[] = [
  'none',
  'api-key',
  'api-key-envelope',
  'api-key-invented',
  'api-key-garbage',
  'siwe',
  'siwe-invented',
  'eip712-random-signature',
  'eip712-garbage',
  'eip712-signed',
];

const AUTH_WEIGHTS: Partial<Record<AuthForm, number>> = { 'eip712-signed': 4, 'api-key': 2, siwe: 2, none: 2 };

/** Printable ASCII: what a header value can carry at all (fetch refuses the rest before sending). */
const headerGarbage = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });
const hexOf = (bytes: number[]) => `0x${bytes.map((b) => b.toString(16).padStart(2, '0')).join('')}`;

interface Case {
  auth: AuthForm;
  payload: unknown;
  mutation: Mutation;
  nonce: string;
  timestamp: number;
  params: Record<string, string>;
  garbage: string;
  randomSignature: string;
}

function caseArbitrary(id: OperationId, operation: Operation): fc.Arbitrary<Case> {
  const bases = operation.input ? samplesFor(id).map((samples) => sampleOf(operation.input!, samples)) : [{}];
  const paramValue = fc.oneof(fc.constantFrom(recordId, keyId, crypto.randomUUID(), "constructor", "__proto__"), hostileString.map((s) => s.slice(0, URL_VALUE_LIMIT)));
  const params = Object.fromEntries((operation.params ? Object.keys(operation.params.shape) : []).map((key) => [key, paramValue]));
  const now = Math.floor(Date.now() / 1000);
  const payloads = fc.constantFrom(...bases).chain((base) => mutated(base));
  return fc.record({
    // Weighted towards the forms that get past authentication, where input reaches the database.
    auth: fc.oneof(...AUTH_FORMS.map((form) => ({ weight: AUTH_WEIGHTS[form] ?? 1, arbitrary: fc.constant(form) }))),
    change: payloads,
    nonce: fc.oneof({ weight: 2, arbitrary: fc.constant('') }, { weight: 1, arbitrary: hostileString }),
    timestamp: fc.oneof({ weight: 4, arbitrary: fc.constant(now) }, { weight: 1, arbitrary: hostileNumber }),
    params: fc.record(params) as fc.Arbitrary<Record<string, string>>,
    garbage: headerGarbage,
    randomSignature: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 65, maxLength: 65 }).map(hexOf),
  }).map(({ change, ...rest }) => ({ ...rest, ...change }));
}

/** The test key's signature; a payload the shared projection cannot even convert goes out with a random one. */
async function signedHeaders(primaryType: string, envelope: ReturnType<typeof buildEnvelope>): Promise<string> {
  const typed = envelopeTypedData(signingDomain(service.services.config), TYPE_REGISTRY, primaryType, envelope);
  return privateKeyToAccount(OWNER_KEY as Hex).signTypedData(typed as never);
}

interface Built {
  url: URL;
  init: RequestInit;
}

async function build(id: OperationId, operation: Operation, c: Case): Promise<Built> {
  const h = client.headers;
  const url = new URL(service.baseUrl + operation.path.replace(/\{(\w+)\}/g, (_, key: string) => encodePathValue(c.params[key] ?? '')));
  const headers: Record<string, string> = {};
  const primaryType = ACCEPTED_PRIMARY_TYPES[id]?.[0] ?? 'CreateDnsRecordEnvelope';
  const payloadRecord = c.payload !== null && typeof c.payload === 'object' && !Array.isArray(c.payload) && !(c.payload instanceof Deep);
  const envelope = buildEnvelope(primaryType, (payloadRecord ? c.payload : {}) as Record<string, unknown>, {
    timestamp: c.timestamp,
    nonce: c.nonce || randomNonce(),
  });
  if (!payloadRecord) envelope.payload = c.payload as Record<string, unknown>;
  let body: unknown = c.payload;
  switch (c.auth) {
    case 'none':
      break;
    case 'api-key':
      headers[h.apiKey] = apiKey;
      break;
    case 'api-key-envelope':
      headers[h.apiKey] = apiKey;
      body = envelope;
      break;
    case 'api-key-invented':
      headers[h.apiKey] = `nfk_${c.randomSignature.slice(2, 45).padEnd(43, 'A')}`;
      break;
    case 'api-key-garbage':
      headers[h.apiKey] = c.garbage;
      break;
    case 'siwe':
      headers[h.siweToken] = siweToken;
      break;
    case 'siwe-invented':
      headers[h.siweToken] = c.garbage || 'invented';
      break;
    case 'eip712-random-signature':
      Object.assign(headers, { [h.signer]: OWNER, [h.signature]: c.randomSignature, [h.eip712Type]: primaryType });
      body = envelope;
      break;
    case 'eip712-garbage':
      Object.assign(headers, { [h.signer]: c.garbage, [h.signature]: `0x${c.garbage}`, [h.eip712Type]: c.garbage });
      body = envelope;
      break;
    case 'eip712-signed':
      Object.assign(headers, { [h.signer]: OWNER, [h.signature]: await signedHeaders(primaryType, envelope).catch(() => c.randomSignature), [h.eip712Type]: primaryType });
      body = envelope;
      break;
  }
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
  if (payload === null || typeof payload !== 'object' || payload instanceof Deep || Array.isArray(payload)) {
    url.searchParams.append('payload', String(payload instanceof Deep ? payload.toText() : toJsonText(payload)).slice(0, URL_VALUE_LIMIT));
    return;
  }
  const text = (v: unknown) => (typeof v === 'string' ? v : toJsonText(v)).slice(0, URL_VALUE_LIMIT);
  for (const [key, value] of Object.entries(payload)) {
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, text(v));
  }
}

const PENDING_SQL = "SELECT count(*)::int AS n FROM orders WHERE status IN ('CREATED', 'PROCESSING')";

/** An accepted order goes on changing the database in the background: wait for it, so the next digest is stable. */
async function settle() {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [{ n }] = await service.services.db.query<{ n: number }>(PENDING_SQL);
    if (n === 0) return;
    if (Date.now() > deadline) throw new Error(`${n} orders still pending after 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sends one case and answers what is wrong with the reply, or null. */
async function runCase(id: OperationId, operation: Operation, c: Case): Promise<string | null> {
  const { url, init } = await build(id, operation, c);
  const before = await digest(service.services.db, digestSql);
  let status: number;
  let text: string;
  try {
    const response = await fetch(url, init);
    status = response.status;
    text = await response.text();
  } catch (error) {
    return `request failed: ${(error as Error).message} ${(error as { cause?: Error }).cause?.message ?? ''}`;
  }
  if (status >= 500) return `${status}: ${text.slice(0, 300)}`;
  if (status >= 400) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return `${status} without a JSON body: ${text.slice(0, 200)}`;
    }
    const shape = errorBody.strict().safeParse(parsed);
    if (!shape.success) return `${status} body is not {defined, code, status, message, data?}: ${text.slice(0, 200)}`;
    if (shape.data.status !== status) return `${status} body says status ${shape.data.status}`;
    const changed = changedTables(before, await digest(service.services.db, digestSql));
    if (changed.length > 0) return `${status} changed ${changed.join(', ')}: ${text.slice(0, 200)}`;
  } else {
    await settle();
  }
  return null;
}

const describeCase = (id: string, c: Case) => {
  const payload = toJsonText(c.payload);
  return `${id} auth=${c.auth} ${c.mutation.kind}:${c.mutation.path} params=${JSON.stringify(c.params).slice(0, 80)} nonce=${JSON.stringify(c.nonce.slice(0, 20))} ts=${c.timestamp} payload=${payload.slice(0, 200)}${payload.length > 200 ? `…(${payload.length})` : ''}`;
};

describe('no input yields a 5xx', () => {
  (Object.entries(operations) as Array<[OperationId, Operation]>).forEach(([id, operation], index) => {
    it(`${id}: never a 5xx; every 4xx is an error body and changes nothing`, async () => {
      const failures = new Map<string, string>();
      await fc.assert(
        fc.asyncProperty(caseArbitrary(id, operation), async (c) => {
          ran.set(id, (ran.get(id) ?? 0) + 1);
          const problem = await runCase(id, operation, c);
          // Grouped by what went wrong, one example each: a run reports every kind of failure at once.
          if (problem) failures.set(problem.replace(/[0-9a-f-]{36}|0x[0-9a-f]+/gi, '…').slice(0, 120), `${problem}\n    ${describeCase(id, c)}`);
          return true;
        }),
        { numRuns: RUNS, seed: SEED + index, endOnFailure: true, interruptAfterTimeLimit: MS_PER_OPERATION, markInterruptAsFailure: false },
      );
      expect([...failures.values()]).toEqual([]);
    }, 600_000);
  });
});
