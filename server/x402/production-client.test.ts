import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from '@x402/fetch';
import { toClientEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startServiceProcess, type ServiceProcess } from '../../test/support/service-process.ts';
import { testClient } from '../../test/support/client.ts';

// `npm run service` with CHAIN=anvil as a child process, and a client written for production: @x402/fetch and
// @x402/evm, knowing only the path `/x402/domain/{name}` under the base URL.
// The client learns the price, token, payee and network from the 402; the test reads the 402 once only to allow
// that token in the client's spend controls, as a person configures a wallet for a stablecoin.
let service: ServiceProcess;
beforeAll(async () => {
  service = await startServiceProcess({ CHAIN: 'anvil', ORDER_PROCESSING_MS: '50' });
}, 180_000);
afterAll(() => service?.stop());

describe('a production x402 client', () => {
  it('buys a name from the local service unchanged', async () => {
    const client = testClient(service);
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    expect((await client.call('requestFaucet', { body: {}, headers: client.withToken(await client.signIn(key)) })).status).toBe(200);

    const name = `agent-${Math.random().toString(36).slice(2, 10)}.com`;
    const first = await fetch(`${service.baseUrl}/x402/domain/${name}`);
    expect(first.status).toBe(402);
    const { accepts } = JSON.parse(Buffer.from(first.headers.get('PAYMENT-REQUIRED')!, 'base64').toString());
    // An EIP-3009 payment is one signature: the client needs no chain connection, only the wallet's key.
    const x402 = x402Client.fromConfig({
      schemes: [{ network: 'eip155:*', client: new ExactEvmScheme(toClientEvmSigner(account)) }],
      spendControls: { allowedAssets: [{ network: accepts[0].network, asset: accepts[0].asset as Address }] },
    });
    const fetchWithPayment = wrapFetchWithPayment(fetch, x402);

    const started = performance.now();
    const response = await fetchWithPayment(`${service.baseUrl}/x402/domain/${name}?durationInYears=1`);
    const ms = performance.now() - started;
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: 'accepted', domain: name, buyerWallet: account.address });
    expect(decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE')!).success).toBe(true);
    console.log(`@x402/fetch purchase against a service process (402 → paid request → accepted): ${ms.toFixed(0)} ms`);

    for (let i = 0; i < 400; i += 1) {
      const followed = await (await fetch(`${service.baseUrl}/x402/purchase/${body.purchaseId}`)).json();
      if (followed.orderStatus === 'SUCCEEDED') return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the purchase never finished');
  }, 60_000);
});
