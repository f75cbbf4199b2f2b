import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { buildEnvelope, payloadStructOf } from '#core/eip712/envelope.ts';
import { TYPE_REGISTRY, typesReachableFrom } from '#core/eip712/registry.ts';
import type { OperationId } from '#core/operations/index.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';

/**
 * Every field a primary type signs must be in the payload, holding a value its type can hold: refused with a 400
 * naming each path, before the signature is checked or the nonce spent.
 */
const [OWNER_KEY] = TEST_KEYS;
const OWNER = addressOf(OWNER_KEY);
const ZONE = 'signed-values.com';

let service: TestService;
let client: TestClient;
let count = 0;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
  await service.services.ownership.mint({ name: ZONE, to: OWNER, chainId: 31337, years: 1, now: new Date() });
  const token = await client.signIn(OWNER_KEY);
  expect((await client.call('requestFaucet', { body: {}, headers: client.withToken(token) })).status).toBe(200);
});
afterAll(() => service.destroy());

type Zone = Array<{ id: string; name: string; type: string; rdata: string; ttl: number }>;
const zone = async () => (await client.call('getDnsRecords', { query: { zoneName: ZONE } })).body as Zone;
const created = async (name: string) => {
  const reply = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, name, type: 'TXT', rdata: `"${name}"`, ttl: 60 });
  expect(reply.status).toBe(200);
  return reply.body as Zone[number];
};
async function minted(): Promise<string> {
  const name = `${unique('park')}.com`;
  await service.services.ownership.mint({ name, to: OWNER, chainId: 31337, years: 1, now: new Date() });
  return name;
}
const unique = (stem: string) => `${stem}${++count}`;
const randomSignature = (): Hex => `0x${Array.from(crypto.getRandomValues(new Uint8Array(65)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/** Each path the struct signs, leaves and nested structs alike, as the payload holds it. */
function signedPaths(struct: string, value: unknown, prefix = ''): string[] {
  const out: string[] = [];
  for (const field of TYPE_REGISTRY[struct] ?? []) {
    const path = prefix + field.name;
    out.push(path);
    const inner = field.type.replace(/\[\]$/, '');
    const item = (value as Record<string, unknown>)[field.name];
    if (!TYPE_REGISTRY[inner]) continue;
    if (inner === field.type) out.push(...signedPaths(inner, item, `${path}.`));
    else (item as unknown[]).forEach((element, i) => out.push(...signedPaths(inner, element, `${path}.${i}.`)));
  }
  return out;
}

function without(payload: Record<string, unknown>, path: string): Record<string, unknown> {
  const copy = structuredClone(payload);
  const keys = path.split('.');
  const parent = keys.slice(0, -1).reduce<any>((node, key) => node[key], copy);
  delete parent[keys.at(-1)!];
  return copy;
}

interface Write {
  id: OperationId;
  primaryType?: string;
  payload: () => Promise<Record<string, unknown>>;
}

const writes: Write[] = [
  { id: 'createDnsRecord', payload: async () => ({ zoneName: ZONE, name: unique('c'), type: 'TXT', rdata: '"c"', ttl: 60, comment: 'c', tags: ['t'] }) },
  { id: 'updateDnsRecord', payload: async () => ({ id: (await created(unique('u'))).id, zoneName: ZONE, name: unique('u'), type: 'TXT', rdata: '"u"', ttl: 90, comment: 'u', tags: [] }) },
  { id: 'updateDnsRecord', primaryType: 'UpdateDnsRecordEnvelope', payload: async () => ({ id: (await created(unique('s'))).id, zoneName: ZONE, name: unique('s'), rdata: '"s"', ttl: 90 }) },
  { id: 'deleteDnsRecord', payload: async () => ({ id: (await created(unique('d'))).id, zoneName: ZONE }) },
  { id: 'batchCreateDnsRecords', payload: async () => ({ zoneName: ZONE, records: [{ name: unique('bc'), type: 'TXT', rdata: '"bc"', ttl: 60, comment: '', tags: ['bc'] }] }) },
  { id: 'batchUpdateDnsRecords', payload: async () => ({ zoneName: ZONE, records: [{ id: (await created(unique('bu'))).id, name: unique('bu'), rdata: '"bu"', ttl: 120, comment: 'bu', tags: [] }] }) },
  { id: 'batchDeleteDnsRecords', payload: async () => ({ zoneName: ZONE, recordsIds: [(await created(unique('bd'))).id] }) },
  { id: 'parkDomain', payload: async () => ({ normalizedDomainName: await minted(), overrideExistingRecords: false }) },
  { id: 'toggleDomainParking', payload: async () => ({ normalizedDomainName: await minted(), enableParking: false, overrideExistingRecords: false }) },
  { id: 'registerDomain', payload: async () => ({ normalizedDomainName: `${unique('reg')}.com`, durationInYears: 1 }) },
  {
    id: 'registerDomain',
    primaryType: 'InstantRegisterDomainEnvelope',
    payload: async () => ({ normalizedDomainName: `${unique('regw')}.com`, durationInYears: 1, nftReceivingWallet: { walletAddress: OWNER, chainId: 31337 } }),
  },
  {
    id: 'registerWithRecords',
    payload: async () => ({ normalizedDomainName: `${unique('regr')}.com`, durationInYears: 1, records: [{ name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 60, comment: '', tags: [] }] }),
  },
  { id: 'setAutoRenew', payload: async () => ({ normalizedDomainName: await minted(), enabled: true, durationInYears: 2 }) },
];

async function primaryTypeFor(write: Write): Promise<string> {
  if (write.primaryType) return write.primaryType;
  const reply = await client.call('getEip712TypesForMethod', { query: { method: write.id } });
  return reply.body.acceptedPrimaryTypes[0];
}
const freshNonce = () => `0x${crypto.randomUUID().replaceAll('-', '')}`;
const nonceSpent = async (nonce: string) => (await service.services.db.query('SELECT 1 FROM envelope_nonces WHERE nonce = $1', [nonce])).length > 0;

describe('every signed field is present', () => {
  for (const write of writes) {
    it(`${write.id} under ${write.primaryType ?? 'its first type'}: each field removed is a 400 naming it, and the nonce stays unspent`, async () => {
      const payload = await write.payload();
      const primaryType = await primaryTypeFor(write);
      const paths = signedPaths(payloadStructOf(TYPE_REGISTRY, primaryType)!, payload);
      expect(paths.length).toBeGreaterThan(1);
      for (const path of paths) {
        const nonce = freshNonce();
        const reply = await client.signed(OWNER_KEY, write.id, payload, { nonce, primaryType, tamper: (e) => ({ ...e, payload: without(e.payload, path) }) });
        expect(reply.status, path).toBe(400);
        expect(reply.body.data, path).toMatchObject({ rule: 'MISSING_SIGNED_FIELD' });
        expect(Object.keys(reply.body.data.fieldErrors), path).toEqual([path]);
        expect(await nonceSpent(nonce), path).toBe(false);
      }
      // The payload whole is a valid write: only the removal was refused.
      const nonce = freshNonce();
      const whole = await client.signed(OWNER_KEY, write.id, payload, { nonce, primaryType });
      expect(whole.status, JSON.stringify(whole.body)).toBe(200);
      expect(await nonceSpent(nonce)).toBe(true);
    });
  }
});

describe('a relay cannot fill in what a partial update left unsigned', () => {
  /** What the old client signed for `{id, zoneName, rdata}`: the absent name and ttl projected as "" and 0. */
  async function oldPartialUpdate(id: string, rdata: string) {
    const domain = (await client.call('getEip712Domain')).body;
    const primaryType = 'UpdateDnsRecordEnvelope';
    const envelope = buildEnvelope(primaryType, { id, zoneName: ZONE, rdata });
    const signature = await privateKeyToAccount(OWNER_KEY).signTypedData({
      domain,
      types: typesReachableFrom(TYPE_REGISTRY, primaryType),
      primaryType,
      message: { ...envelope, payload: { id, zoneName: ZONE, name: '', rdata, ttl: 0n }, timestamp: BigInt(envelope.timestamp) },
    } as never);
    const h = client.headers;
    return (payload: Record<string, unknown>) =>
      client.call('updateDnsRecord', { body: { ...envelope, payload }, headers: { [h.signer]: OWNER, [h.signature]: signature, [h.eip712Type]: primaryType } });
  }

  it('refuses `name: ""` or `ttl: 0` added to it, naming the field still absent, and leaves the record as it was', async () => {
    const record = await created(unique('relay'));
    const relay = await oldPartialUpdate(record.id, '"moved"');
    const named = await relay({ id: record.id, zoneName: ZONE, rdata: '"moved"', name: '' });
    expect(named.status).toBe(400);
    expect(named.body.data).toMatchObject({ rule: 'MISSING_SIGNED_FIELD', fieldErrors: { ttl: [expect.any(String)] } });
    const cached = await relay({ id: record.id, zoneName: ZONE, rdata: '"moved"', ttl: 0 });
    expect(cached.status).toBe(400);
    expect(cached.body.data).toMatchObject({ rule: 'MISSING_SIGNED_FIELD', fieldErrors: { name: [expect.any(String)] } });
    expect((await zone()).find((r) => r.id === record.id)).toEqual(record);
  });

  it('acts on exactly the signed values: an empty or "@" name is the apex, a signed ttl of 0 is the TTL', async () => {
    for (const apex of ['', '@']) {
      const record = await created(unique('apex'));
      const reply = await client.signed(OWNER_KEY, 'updateDnsRecord', { id: record.id, zoneName: ZONE, name: apex, type: 'TXT', rdata: record.rdata, ttl: 0 });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body).toMatchObject({ id: record.id, name: '@', ttl: 0 });
    }
  });
});

describe('numbers a type cannot hold are 400s naming the field, before any signature is checked', () => {
  const huge = `1${'0'.repeat(100)}`;
  const cases: Array<[OperationId, string, (n: unknown) => Record<string, unknown>]> = [
    ['createDnsRecord', 'ttl', (n) => ({ zoneName: ZONE, name: 'n', type: 'TXT', rdata: '"n"', ttl: n })],
    ['updateDnsRecord', 'ttl', (n) => ({ id: 'x', zoneName: ZONE, name: 'n', type: 'TXT', rdata: '"n"', ttl: n })],
    ['batchCreateDnsRecords', 'records.0.ttl', (n) => ({ zoneName: ZONE, records: [{ name: 'n', type: 'TXT', rdata: '"n"', ttl: n }] })],
    ['batchUpdateDnsRecords', 'records.0.ttl', (n) => ({ zoneName: ZONE, records: [{ id: 'x', name: 'n', rdata: '"n"', ttl: n }] })],
    ['registerDomain', 'durationInYears', (n) => ({ normalizedDomainName: 'n.com', durationInYears: n })],
    ['registerDomain', 'nftReceivingWallet.chainId', (n) => ({ normalizedDomainName: 'n.com', durationInYears: 1, nftReceivingWallet: { walletAddress: OWNER, chainId: n } })],
    ['registerWithRecords', 'records.0.ttl', (n) => ({ normalizedDomainName: 'n.com', durationInYears: 1, records: [{ name: 'n', type: 'TXT', rdata: '"n"', ttl: n }] })],
    ['setAutoRenew', 'durationInYears', (n) => ({ normalizedDomainName: ZONE, enabled: true, durationInYears: n })],
  ];
  const primaryTypes: Record<string, string> = {
    createDnsRecord: 'CreateTypedDnsRecordEnvelope',
    updateDnsRecord: 'UpdateTypedDnsRecordEnvelope',
    batchCreateDnsRecords: 'CreateRecordsEnvelope',
    batchUpdateDnsRecords: 'UpdateRecordsEnvelope',
    registerWithRecords: 'RegisterDomainWithRecordsEnvelope',
    setAutoRenew: 'SetAutoRenewEnvelope',
  };
  const bad: Array<[unknown, RegExp]> = [
    [huge, /above the largest uint256 \(2\^256-1\)/],
    [Number(huge), /above the largest uint256/],
    [-1, /negative/],
    ['-1', /negative/],
    [1.5, /whole number/],
    ['1.5', /whole number/],
    ['12abc', /digits only/],
    [true, /must be a number/],
  ];

  for (const [id, path, payload] of cases) {
    it(`${id}: ${path}`, async () => {
      const primaryType = path.startsWith('nftReceivingWallet') ? 'InstantRegisterDomainEnvelope' : (primaryTypes[id] ?? 'InstantRegisterDomainDefaultWalletEnvelope');
      const h = client.headers;
      for (const [value, message] of bad) {
        const reply = await client.call(id, {
          body: buildEnvelope(primaryType, payload(value)),
          headers: { [h.signer]: OWNER, [h.signature]: randomSignature(), [h.eip712Type]: primaryType },
        });
        expect(reply.status, `${String(value)}: ${JSON.stringify(reply.body)}`).toBe(400);
        expect(Object.keys(reply.body.data.fieldErrors)).toEqual([path]);
        expect(reply.body.data.fieldErrors[path][0]).toMatch(message);
      }
    });
  }

  it('the envelope\u2019s own timestamp, by the same rule', async () => {
    const h = client.headers;
    for (const [timestamp, message] of [[huge, /above the largest uint256/], [-5, /negative/], [1.5, /whole number/], ['soon', /digits only/]] as const) {
      const body = { ...buildEnvelope('RecordSelectEnvelope', { id: 'x', zoneName: ZONE }), timestamp };
      const reply = await client.call('deleteDnsRecord', { body, headers: { [h.signer]: OWNER, [h.signature]: randomSignature(), [h.eip712Type]: 'RecordSelectEnvelope' } });
      expect(reply.status).toBe(400);
      expect(reply.body.data.fieldErrors).toEqual({ timestamp: [expect.stringMatching(message)] });
    }
  });

  it('the largest uint256 can be signed: the input schema then bounds the TTL', async () => {
    const reply = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, name: 'max', type: 'TXT', rdata: '"max"', ttl: (2n ** 256n - 1n).toString() });
    expect(reply.status).toBe(400);
    expect(reply.body.data.rule).toBeUndefined();
    expect(Object.keys(reply.body.data.fieldErrors)).toEqual(['ttl']);
  });
});
