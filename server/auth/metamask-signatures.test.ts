import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TypedDataUtils, SignTypedDataVersion } from '@metamask/eth-sig-util';
import { bytesToHex, getTypesForEIP712Domain, hashTypedData, serializeTypedData, stringToHex, type Hex, type TypedDataDefinition } from 'viem';
import { metamaskPersonalSign, metamaskSignTypedDataV4, WalletRpcError } from '../../test/support/metamask-signing.ts';
import { buildEnvelope, envelopeTypedData, payloadStructOf, type TypedDataRequest } from '#core/eip712/envelope.ts';
import { ACCEPTED_PRIMARY_TYPES, TYPE_REGISTRY } from '#core/eip712/registry.ts';
import { loadConfig } from '../config.ts';
import { signingDomain } from './signing-domain.ts';
import type { TypeRegistry } from '#core/wire/eip712.ts';
import { operations, type OperationId } from '#core/operations/index.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import type { DomainError } from '../domain-errors.ts';
import { httpErrorOf } from '../http/errors.ts';
import { authenticate } from './authenticate.ts';

/**
 * MetaMask's signing path against the service's verifier, for every operation that has an EIP-712 form and for
 * SIWE: the dashboard hands the wallet the JSON viem serialises for `eth_signTypedData_v4`; MetaMask parses it and
 * hashes it with its own library; the service recomputes the typed data from the envelope and recovers with viem.
 * Any difference between the two encoders (a type string, a nested struct array, a uint sent as a string, Unicode)
 * would make a MetaMask user's every write a 401.
 */

const KEY = TEST_KEYS[1];
const ADDRESS = addressOf(KEY);
const CHAIN_ID = 31337;

/** Two payloads per struct: ordinary values, and edges (Unicode, quotes, empty and long arrays, a huge uint). */
function samplePayload(types: TypeRegistry, struct: string, variant: 'plain' | 'edge', depth = 0): Record<string, unknown> {
  const value = (type: string, name: string): unknown => {
    if (type.endsWith('[]')) {
      const inner = type.slice(0, -2);
      const count = variant === 'plain' ? 1 : depth === 0 ? 3 : 0;
      return Array.from({ length: count }, (_, i) => value(inner, `${name}${i}`));
    }
    if (types[type]) return samplePayload(types, type, variant, depth + 1);
    if (type.startsWith('uint')) return variant === 'plain' ? 300 : '115792089237316195423570985008687907853269984665640564039457584007913129639935';
    if (type === 'bool') return variant === 'edge';
    if (type === 'address') return ADDRESS;
    return variant === 'plain' ? `${name}-example.com` : `bücher-${name} "quoted" \\ ünïcødé 🙂 名前`;
  };
  return Object.fromEntries((types[struct] ?? []).map((field) => [field.name, value(field.type, field.name)]));
}

/** What viem (and so wagmi, and so the dashboard) sends as eth_signTypedData_v4's second param. */
function jsonViemSends(typed: TypedDataRequest): string {
  const { domain, types, primaryType, message } = typed as unknown as TypedDataDefinition;
  return serializeTypedData({ domain, types: { EIP712Domain: getTypesForEIP712Domain({ domain }), ...types }, primaryType, message } as never);
}

const cases = Object.entries(ACCEPTED_PRIMARY_TYPES).flatMap(([operation, accepted]) =>
  accepted.flatMap((primaryType) =>
    (['plain', 'edge'] as const).flatMap((variant) =>
      ([undefined, CHAIN_ID] as const).map((chainId) => ({ operation: operation as OperationId, primaryType, variant, chainId })),
    ),
  ),
);

let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

describe('eth_signTypedData_v4 as MetaMask signs it, checked by the service', () => {
  it('covers every operation with an EIP-712 type', () => {
    const covered = new Set(cases.map((c) => c.operation));
    expect([...covered].sort()).toEqual(Object.keys(ACCEPTED_PRIMARY_TYPES).sort());
    for (const id of covered) expect(operations[id], id).toBeDefined();
  });

  it.each(cases)('$operation $primaryType ($variant payload, domain chainId $chainId): same hash, and the service recovers the signer', async ({ operation, primaryType, variant, chainId }) => {
    const struct = payloadStructOf(TYPE_REGISTRY, primaryType)!;
    const envelope = buildEnvelope(primaryType, samplePayload(TYPE_REGISTRY, struct, variant));
    const ours = signingDomain(service.services.config);
    const domain = chainId === undefined ? ours : { ...ours, chainId };
    const typed = envelopeTypedData(domain, TYPE_REGISTRY, primaryType, envelope);
    const json = jsonViemSends(typed);

    // The two libraries hash the same typed data to the same digest.
    const metamaskHash = bytesToHex(TypedDataUtils.eip712Hash(JSON.parse(json), SignTypedDataVersion.V4));
    expect(metamaskHash).toBe(hashTypedData(typed as unknown as TypedDataDefinition));

    // The service, given the envelope and MetaMask's signature, authenticates the signer.
    const signature = metamaskSignTypedDataV4(KEY, [ADDRESS, json], { connected: ADDRESS, chainId: CHAIN_ID });
    const h = service.services.headers;
    const headers = new Headers({ [h.signer]: ADDRESS, [h.signature]: signature, [h.eip712Type]: primaryType });
    if (chainId !== undefined) headers.set(h.chainId, String(chainId));
    const { principal } = await authenticate(service.services, operations[operation], { headers, body: JSON.parse(JSON.stringify(envelope)) });
    expect(principal).toMatchObject({ wallet: ADDRESS.toLowerCase(), via: 'eip712' });
  });

  it('a signature over other typed data is refused by the service', async () => {
    const envelope = buildEnvelope('RecordSelectEnvelope', { id: 'rec-1', zoneName: 'example.com' });
    const json = jsonViemSends(envelopeTypedData(signingDomain(service.services.config), TYPE_REGISTRY, 'RecordSelectEnvelope', envelope));
    const signature = metamaskSignTypedDataV4(KEY, [ADDRESS, json.replace('rec-1', 'rec-2')], { connected: ADDRESS, chainId: CHAIN_ID });
    const h = service.services.headers;
    const headers = new Headers({ [h.signer]: ADDRESS, [h.signature]: signature, [h.eip712Type]: 'RecordSelectEnvelope' });
    const refusal = await authenticate(service.services, operations.deleteDnsRecord, { headers, body: envelope }).catch((error: DomainError) => httpErrorOf(error));
    expect(refusal).toMatchObject({ status: 401 });
    expect((refusal as Error).message).toMatch(/^The signer does not match/);
  });
});

describe("MetaMask's checks before it signs", () => {
  it('refuses a struct with a field missing, as the service does: neither side signs an absent field as empty', async () => {
    const envelope = buildEnvelope('UpdateDnsRecordEnvelope', { id: 'rec-1', zoneName: 'example.com', name: 'www', rdata: '"x"', ttl: 60 });
    const typed = JSON.parse(jsonViemSends(envelopeTypedData(signingDomain(loadConfig({})), TYPE_REGISTRY, 'UpdateDnsRecordEnvelope', envelope)));
    delete typed.message.payload.ttl;
    expect(() => metamaskSignTypedDataV4(KEY, [ADDRESS, JSON.stringify(typed)], { connected: ADDRESS, chainId: CHAIN_ID })).toThrow(/missing value for field ttl/);
    const h = service.services.headers;
    const headers = new Headers({ [h.signer]: ADDRESS, [h.signature]: `0x${'11'.repeat(65)}`, [h.eip712Type]: 'UpdateDnsRecordEnvelope' });
    const { ttl: _absent, ...partial } = envelope.payload;
    const refusal = await authenticate(service.services, operations.updateDnsRecord, { headers, body: { ...envelope, payload: partial } }).catch((error: DomainError) => httpErrorOf(error));
    expect(refusal).toMatchObject({ status: 400, data: { rule: 'MISSING_SIGNED_FIELD', fieldErrors: { ttl: [expect.any(String)] } } });
  });

  const json = jsonViemSends(envelopeTypedData({ ...signingDomain(loadConfig({})), chainId: 1 }, TYPE_REGISTRY, 'ZoneSelectEnvelope', buildEnvelope('ZoneSelectEnvelope', { zoneName: 'a.com' })));

  it('refuses typed data whose domain names another chain than the active one', () => {
    const sign = () => metamaskSignTypedDataV4(KEY, [ADDRESS, json], { connected: ADDRESS, chainId: CHAIN_ID });
    expect(sign).toThrow(WalletRpcError);
    expect(sign).toThrow('Provided chainId "1" must match the active chainId "31337"');
    expect(metamaskSignTypedDataV4(KEY, [ADDRESS, json], { connected: ADDRESS, chainId: 1 })).toMatch(/^0x[0-9a-f]{130}$/);
  });

  it('refuses a `from` that is not the connected account, and one that is no address', () => {
    const other = addressOf(TEST_KEYS[2]);
    expect(() => metamaskSignTypedDataV4(KEY, [other, json], { connected: ADDRESS, chainId: 1 })).toThrow(expect.objectContaining({ code: 4100 }));
    expect(() => metamaskPersonalSign(KEY, [stringToHex('hi'), other], { connected: ADDRESS, chainId: 1 })).toThrow(expect.objectContaining({ code: 4100 }));
    expect(() => metamaskSignTypedDataV4(KEY, ['nobody', json], { connected: ADDRESS, chainId: 1 })).toThrow(expect.objectContaining({ code: -32602 }));
  });
});

describe('SIWE through personal_sign as MetaMask signs it', () => {
  it('signs in on every chain the service allows', async () => {
    const chains = service.services.config.ALLOWED_CHAINS;
    expect(chains).toContain(CHAIN_ID);
    for (const chainId of chains) {
      const nonce = await client.call('getSiweNonce', { query: { signerAddress: ADDRESS } });
      const prepared = await client.call('prepareSiweMessage', { query: { signerAddress: ADDRESS, nonce: nonce.body.nonce, chainId } });
      expect(prepared.status).toBe(200);
      // viem's signMessage (the dashboard's) sends the text hex-encoded, the address second.
      const signature = metamaskPersonalSign(KEY, [stringToHex(prepared.body.messageString as string), ADDRESS], { connected: ADDRESS, chainId });
      const verified = await client.call('verifySiwe', { body: { address: ADDRESS, message: prepared.body.message, signature } });
      expect(verified.body, `chain ${chainId}`).toMatchObject({ valid: true });
      expect(typeof verified.body.token).toBe('string');
    }
  });

  it('a personal_sign of another text does not sign in', async () => {
    const nonce = await client.call('getSiweNonce', { query: { signerAddress: ADDRESS } });
    const prepared = await client.call('prepareSiweMessage', { query: { signerAddress: ADDRESS, nonce: nonce.body.nonce, chainId: CHAIN_ID } });
    const text = (prepared.body.messageString as string).replace('Version: 1', 'Version: 2');
    const signature = metamaskPersonalSign(KEY, [stringToHex(text), ADDRESS], { connected: ADDRESS, chainId: CHAIN_ID }) as Hex;
    const verified = await client.call('verifySiwe', { body: { address: ADDRESS, message: prepared.body.message, signature } });
    expect(verified.body).toMatchObject({ valid: false });
  });
});
