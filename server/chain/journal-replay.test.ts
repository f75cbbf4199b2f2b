import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { x402Kit } from '../../test/chain/x402-test-kit.ts';
import { delegateToSmartAccount, deploySmartAccount } from '../../test/chain/accounts.ts';
import { delegationCode } from './account-journal.ts';
import { reconcileChain } from './reconcile-chain.ts';

// The chain loses what it took after its last state save (a kill -9 within CHAIN_STATE_INTERVAL_S): here anvil's
// own snapshot and revert stand for that save and that loss, while the database keeps what it committed.
let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService({ CHAIN: 'anvil' });
  client = testClient(service);
}, 180_000);
afterAll(() => service?.destroy());

const kit = x402Kit(() => ({ service, client }));
const chain = () => service.chain!;
const anvil = () => createTestClient({ mode: 'anvil', chain: chain().clients.chain, transport: http(chain().rpcUrl) });
const codeOf = async (address: Address) => ((await chain().clients.public.getCode({ address })) ?? '0x').toLowerCase();
const journaled = async (account: Address) =>
  (await service.services.db.query<{ kind: string }>('SELECT kind FROM chain_account_journal WHERE account = $1', [account])).map((r) => r.kind);

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('never happened');
}

/** A name bought with x402 to the end (its NFT minted); answers the payer's USD balance after it. */
async function buy(key: Hex, name: string, headers?: Record<string, string>): Promise<bigint> {
  const reply = await kit.ask(name, {}, headers ?? (await kit.pay(key, await kit.requirementsOf(await kit.ask(name)))));
  const body = await reply.json();
  expect(reply.status, JSON.stringify(body)).toBe(200);
  await kit.follow(body.purchaseId, (p) => p.orderStatus === 'SUCCEEDED');
  return kit.usdBalance(privateKeyToAccount(key).address);
}

describe('the journal makes again what the chain lost after its last save', () => {
  it('deploys the smart account, delegates the EOAs and settles the x402 payment again, once', async () => {
    const key = kit.newKey();
    const payer = privateKeyToAccount(key).address;
    await kit.fund(key);
    const saved = await anvil().snapshot();

    const owner = privateKeyToAccount(generatePrivateKey()).address;
    const account = await deploySmartAccount(chain().clients, chain().deployment, owner);
    const eoa = privateKeyToAccount(generatePrivateKey());
    await delegateToSmartAccount(chain().clients, chain().deployment, eoa);
    // An EOA that goes on using its nonce after the loss: its signed authorisation is stale by the time it is replayed.
    const moving = privateKeyToAccount(generatePrivateKey());
    await delegateToSmartAccount(chain().clients, chain().deployment, moving);
    const name = kit.unique('journal');
    const balance = await buy(key, name);
    const accountCode = await codeOf(account);
    const delegated = delegationCode(chain().deployment.accountImplementation);
    expect(await codeOf(eoa.address)).toBe(delegated);
    await waitFor(async () => (await journaled(account)).length > 0 && (await journaled(moving.address)).length > 0);
    expect(await journaled(account)).toEqual(['deployment']);
    expect(await journaled(eoa.address)).toEqual(['delegation']);

    await anvil().revert({ id: saved });
    expect(await codeOf(account)).toBe('0x');
    expect(await codeOf(eoa.address)).toBe('0x');
    expect(await kit.usdBalance(payer)).toBe(balance + kit.COM_UNITS);
    await chain().clients.public.request({ method: 'anvil_setNonce' as never, params: [moving.address, '0x5'] as never });

    const report = await reconcileChain(chain(), service.services.db);
    expect(report.accounts).toEqual({ deployed: 1, delegated: 2, unrestored: [] });
    expect(report.settlements).toEqual({ resettled: 1, refunded: 0 });
    expect(report.restored).toEqual([name]);
    expect(await codeOf(account)).toBe(accountCode);
    expect(await codeOf(eoa.address)).toBe(delegated);
    expect(await codeOf(moving.address)).toBe(delegated);
    expect(await kit.usdBalance(payer)).toBe(balance);
    expect(await kit.holderOf(name)).toBe(payer);

    const again = await reconcileChain(chain(), service.services.db);
    expect([again.accounts, again.settlements]).toEqual([{ deployed: 0, delegated: 0, unrestored: [] }, { resettled: 0, refunded: 0 }]);
    expect(await kit.usdBalance(payer)).toBe(balance);
  });

  it('settles and refunds again, once, a purchase whose order failed', async () => {
    const key = kit.newKey();
    const payer = privateKeyToAccount(key).address;
    await kit.fund(key);
    const before = await kit.usdBalance(payer);
    const saved = await anvil().snapshot();
    const name = kit.unique('fail-refund');
    const reply = await kit.ask(name, {}, await kit.pay(key, await kit.requirementsOf(await kit.ask(name))));
    const body = await reply.json();
    expect(reply.status, JSON.stringify(body)).toBe(200);
    await kit.follow(body.purchaseId, (p) => p.orderStatus === 'FAILED' && p.refund !== null);
    expect(await kit.usdBalance(payer)).toBe(before);

    await anvil().revert({ id: saved });
    expect(await service.services.x402!.usd.refundOf(body.purchaseId)).toBeNull();
    expect((await reconcileChain(chain(), service.services.db)).settlements).toEqual({ resettled: 1, refunded: 1 });
    expect(await service.services.x402!.usd.refundOf(body.purchaseId)).toMatchObject({ to: payer, units: kit.COM_UNITS });
    expect(await kit.usdBalance(payer)).toBe(before);
    expect((await reconcileChain(chain(), service.services.db)).settlements).toEqual({ resettled: 0, refunded: 0 });
  });

  it('settles again, once, a payment whose authorization expired since it was lost', async () => {
    const key = kit.newKey();
    const payer = privateKeyToAccount(key).address;
    await kit.fund(key);
    const name = kit.unique('expired');
    const [accepted] = (await kit.requirementsOf(await kit.ask(name))).accepts;
    const now = BigInt(Math.floor(Date.now() / 1000));
    const headers = await kit.handSigned(key, accepted, { validAfter: 0n, validBefore: now + 60n });
    const saved = await anvil().snapshot();
    const balance = await buy(key, name, headers);
    await anvil().revert({ id: saved });
    await anvil().increaseTime({ seconds: 120 });
    await anvil().mine({ blocks: 1 });
    const gas = await chain().clients.public.getBalance({ address: payer });

    expect((await reconcileChain(chain(), service.services.db)).settlements).toEqual({ resettled: 1, refunded: 0 });
    expect(await kit.usdBalance(payer)).toBe(balance);
    expect(await kit.usdBalance(accepted.payTo)).toBeGreaterThanOrEqual(kit.COM_UNITS);
    expect(await chain().clients.public.getBalance({ address: payer })).toBe(gas);
    expect((await reconcileChain(chain(), service.services.db)).settlements).toEqual({ resettled: 0, refunded: 0 });
  });
});
