import { decodePaymentRequiredHeader } from '@x402/core/http';
import { keccak256, stringToBytes, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { serviceHeaders } from '#core/headers.ts';
import { TEST_KEYS, testClient, type Reply, type TestClient } from '../support/client.ts';
import { x402Payer } from './x402-test-kit.ts';
import { deploySmartAccount } from './accounts.ts';
import { chainClients } from '../../server/chain/client.ts';
import { readDeployment, deploymentFile } from '../../server/chain/deploy.ts';
import { fundOnAnvil } from './dev-actions.ts';
import type { Running } from './kill-nine-process.ts';

/**
 * The kill -9 suite's journey (kill-nine.test.ts): what a wallet does against the service, each answer checked, and
 * what it was acknowledged, for the checks after the restart (kill-nine-verify.ts).
 */

export const aliceKey = TEST_KEYS[1];
export const alice = privateKeyToAccount(aliceKey).address;
/** Sends the smart-account deployments, as a wallet's bundler would: not the service's account, whose nonce it uses. */
const DEPLOYER_KEY = keccak256(stringToBytes('namefi kill-nine deployer'));
export const FINISHED = ['SUCCEEDED', 'FAILED', 'PARTIALLY_COMPLETED'];
export const COM_CENTS = 1250;

export type Step = 'faucet' | 'register' | 'x402' | 'account' | 'processing' | 'record' | 'end';
export type Kill = { label: string; env?: string; after?: { step: Step; ms: number } };

/** What one round's journey was told (acknowledged) by the service, and what it did on the chain itself. */
export interface Round {
  index: number;
  kill: Kill;
  reached: Step[];
  faucet: boolean;
  orders: { ok?: string; fail?: string };
  x402?: { purchaseId: string; orderId: string };
  /** The smart account the journey deployed, and when its deployment was mined (Date.now()). */
  account?: { address: Address; code: Hex; minedAt: number };
  /** When the round's service was seen dead (Date.now()). */
  diedAt?: number;
  record: boolean;
}
export const names = (r: number) => ({ ok: `round${r}-ok.com`, fail: `fail-round${r}.com`, x402: `round${r}-x402.com` });

/** An answer other than the one the journey expects: always a failure, whoever died. */
export class WrongAnswer extends Error {}
export function expectStatus<T extends { status: number }>(reply: T, status: number | '2xx', what: string, body?: unknown): T {
  const ok = status === '2xx' ? reply.status >= 200 && reply.status < 300 : reply.status === status;
  if (!ok) throw new WrongAnswer(`${what} answered ${reply.status}, expected ${status}: ${JSON.stringify(body ?? (reply as Partial<Reply>).body)}`);
  return reply;
}

export const clientOf = (baseUrl: string): TestClient => testClient({ baseUrl, services: { headers: serviceHeaders('namefi') } } as never);

export async function journey(service: Running, dataDir: string, round: Round, at: (step: Step) => void): Promise<void> {
  const baseUrl = await service.baseUrl;
  const rpcUrl = await service.rpcUrl;
  const client = clientOf(baseUrl);
  const { ok, fail, x402 } = names(round.index);
  const headers = client.withToken(await client.signIn(aliceKey));
  at('faucet');
  expectStatus(await client.call('requestFaucet', { body: {}, headers }), '2xx', 'requestFaucet');
  round.faucet = true;
  at('register');
  round.orders.ok = expectStatus(await client.signed(aliceKey, 'registerDomain', { normalizedDomainName: ok, durationInYears: 1 }), '2xx', 'registerDomain').body.id;
  round.orders.fail = expectStatus(await client.signed(aliceKey, 'registerDomain', { normalizedDomainName: fail, durationInYears: 1 }), '2xx', 'registerDomain').body.id;

  at('x402');
  const ask = (h: Record<string, string> = {}) => fetch(`${baseUrl}/x402/domain/${x402}`, { headers: h });
  const required = decodePaymentRequiredHeader(expectStatus(await ask(), 402, 'registerDomainX402 without payment').headers.get('PAYMENT-REQUIRED')!);
  const chain = chainClients({ rpcUrl, serviceKey: DEPLOYER_KEY });
  const payer = x402Payer(aliceKey, chain.public, chain.chain.id, required.accepts[0].asset as Address);
  const paid = await ask(payer.encodePaymentSignatureHeader(await payer.createPaymentPayload(required)));
  const purchase = await paid.json();
  expectStatus(paid, 200, 'registerDomainX402 with payment', purchase);
  round.x402 = { purchaseId: purchase.purchaseId, orderId: purchase.orderId };

  at('account');
  const deployment = (await readDeployment(deploymentFile(dataDir)))!;
  await fundOnAnvil(chain, chain.wallet.account.address);
  const address = await deploySmartAccount(chain, deployment, alice, keccak256(stringToBytes(`round ${round.index}`)));
  round.account = { address, code: (await chain.public.getCode({ address }))!, minedAt: Date.now() };

  at('processing');
  await waitFor(async () => FINISHED.includes(expectStatus(await client.call('getOrder', { params: { orderId: round.orders.ok! }, headers }), 200, 'getOrder').body.order.status));
  at('record');
  expectStatus(await client.signed(aliceKey, 'createDnsRecord', { zoneName: ok, name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 }), '2xx', 'createDnsRecord');
  round.record = true;
  await waitFor(async () =>
    expectStatus(await client.call('getUserOrders', { headers }), 200, 'getUserOrders').body.every((i: { status: string }) => FINISHED.includes(i.status) || i.status === 'CANCELLED'),
  );
  at('end');
}

/**
 * A point beyond the journey's own writes (a later state save, which comes only when the chain changed): more faucet
 * grants, each answered 2xx, change the chain until the service dies at it, for at most 20 grants.
 */
export async function driveUntilDead(service: Running): Promise<void> {
  const client = clientOf(await service.baseUrl);
  const headers = client.withToken(await client.signIn(aliceKey));
  for (let i = 0; i < 20 && service.alive(); i += 1) {
    const reply = await client.call('requestFaucet', { body: {}, headers }).catch(() => null);
    if (reply) expectStatus(reply, '2xx', 'requestFaucet');
    await Promise.race([service.exited, new Promise((r) => setTimeout(r, 250))]);
  }
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

