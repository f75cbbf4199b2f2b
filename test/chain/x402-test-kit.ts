import { expect } from 'vitest';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { authorizationTypes, toClientEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { getAddress, hexToBigInt, keccak256, toBytes, toHex, type Address, type Hex } from 'viem';
import type { ChainClients } from '../../server/chain/client.ts';
import type { TestService } from '../support/test-service.ts';
import type { TestClient } from '../support/client.ts';
import { domainRegistryAbi, usdTokenAbi } from '../../server/chain/contracts.ts';
import { USD_EIP712 } from '../../server/chain/usd-token.ts';

/** A paying agent's x402 client (the real `@x402/*` one) signing with `key` for the local chain's USD token. */
export function x402Payer(key: Hex, publicClient: ChainClients['public'], chainId: number, asset: Address): x402HTTPClient {
  const signer = toClientEvmSigner(privateKeyToAccount(key), publicClient);
  // A client allows only the assets it knows: the local token is not one of x402's defaults.
  const spendControls = { allowedAssets: [{ network: `eip155:${chainId}` as const, asset }] };
  return new x402HTTPClient(x402Client.fromConfig({ schemes: [{ network: 'eip155:*', client: new ExactEvmScheme(signer) }], spendControls }));
}

/**
 * What the x402 tests do as a paying agent would, against the service with CHAIN=anvil: ask for the 402, sign the
 * payment with the real x402 client (or by hand, for a window that client would not set), follow the purchase, and
 * read balances and holders from the contracts.
 */
export function x402Kit(current: () => { service: TestService; client: TestClient }) {
  const service = () => current().service;
  const client = () => current().client;
  const chain = () => service().chain!;
  const usd = () => chain().deployment.usdToken!;
  const COM_UNITS = 12_500_000n; // 12.50 USD a year for .com, in 6-decimal units
  const newKey = () => generatePrivateKey();
  const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}.com`;
  // At a given block when asked: a refund can land between the settlement and a read of the latest block.
  const usdBalance = (address: string, blockNumber?: bigint) =>
    chain().clients.public.readContract({ address: usd(), abi: usdTokenAbi, functionName: 'balanceOf', args: [getAddress(address)], blockNumber });
  const holderOf = (name: string) =>
    chain().clients.public.readContract({ address: chain().deployment.registry, abi: domainRegistryAbi, functionName: 'ownerOf', args: [hexToBigInt(keccak256(toBytes(name)))] });
  const purchaseRows = async () => Number((await service().services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM x402_purchases'))[0].n);

  async function fund(key: Hex): Promise<void> {
    const headers = client().withToken(await client().signIn(key));
    expect((await client().call('requestFaucet', { body: {}, headers })).status).toBe(200);
  }

  function ask(name: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) {
    const url = new URL(`${service().baseUrl}/x402/domain/${name}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return fetch(url, { headers });
  }

  const payer = (key: Hex) => x402Payer(key, chain().clients.public, chain().chainId, usd());

  async function requirementsOf(response: Response): Promise<PaymentRequired> {
    expect(response.status).toBe(402);
    return decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
  }

  /** The payment header a wallet would send for this 402, signed by `key`. */
  async function pay(key: Hex, required: PaymentRequired): Promise<Record<string, string>> {
    const http = payer(key);
    return http.encodePaymentSignatureHeader(await http.createPaymentPayload(required));
  }

  /** An EIP-3009 authorization signed by hand, to set a window the x402 client would not. */
  async function handSigned(key: Hex, accepted: PaymentRequirements, window: { validAfter: bigint; validBefore: bigint }) {
    const account = privateKeyToAccount(key);
    const authorization = {
      from: account.address,
      to: getAddress(accepted.payTo),
      value: BigInt(accepted.amount),
      ...window,
      nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
    };
    const signature = await account.signTypedData({
      domain: { ...USD_EIP712, chainId: chain().chainId, verifyingContract: usd() },
      types: authorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: authorization,
    });
    const stringified = Object.fromEntries(Object.entries(authorization).map(([k, v]) => [k, String(v)]));
    return { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader({ x402Version: 2, accepted, payload: { authorization: stringified, signature } }) };
  }

  async function follow(purchaseId: string, until: (body: any) => boolean) {
    for (let i = 0; i < 400; i += 1) {
      const reply = await client().call('getX402Purchase', { params: { purchaseId } });
      expect(reply.status).toBe(200);
      if (until(reply.body)) return reply.body;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`purchase ${purchaseId} never reached the state waited for`);
  }

  return { chain, usd, COM_UNITS, newKey, unique, usdBalance, holderOf, purchaseRows, fund, ask, requirementsOf, pay, handSigned, follow };
}
