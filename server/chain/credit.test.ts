import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { creditAbi } from './contracts.ts';
import { centsToUnits, chainCredit, unitsToCents } from './credit.ts';
import { startTestChain, type TestChain } from '../../test/chain/testing.ts';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.close());

const newAddress = () => privateKeyToAccount(generatePrivateKey()).address;

describe('cents and credit units', () => {
  it('converts 1 cent to 10^16 units and rounds partial cents down', () => {
    expect(centsToUnits(1250)).toBe(12_500_000_000_000_000_000n);
    expect(unitsToCents(12_500_000_000_000_000_000n)).toBe(1250);
    expect(unitsToCents(centsToUnits(7) + 10n ** 16n - 1n)).toBe(7);
    expect(() => centsToUnits(-1)).toThrow(RangeError);
    expect(() => centsToUnits(1.5)).toThrow(RangeError);
  });
});

describe('chainCredit', () => {
  it('grants from the faucet, charges an order once and refunds it, all as token balances', async () => {
    const ledger = chainCredit(chain.clients, chain.deployment);
    const alice = newAddress();
    expect(await ledger.balanceCents(alice)).toBe(0);
    await ledger.grantCents(alice, 10_000);
    expect(await ledger.balanceCents(alice)).toBe(10_000);
    expect(await chain.clients.public.readContract({ address: chain.deployment.credit, abi: creditAbi, functionName: 'balanceOf', args: [alice] })).toBe(
      100n * 10n ** 18n,
    );

    expect(await ledger.charge({ wallet: alice, cents: 1250, orderId: 'order-a' })).toBe('charged');
    expect(await ledger.charge({ wallet: alice, cents: 1250, orderId: 'order-a' })).toBe('charged');
    expect(await ledger.balanceCents(alice)).toBe(8750);

    expect(await ledger.charge({ wallet: alice, cents: 9000, orderId: 'order-b' })).toBe('insufficient');
    expect(await ledger.balanceCents(alice)).toBe(8750);

    await ledger.refund({ orderId: 'order-a', totalRefundedCents: 1250 });
    await ledger.refund({ orderId: 'order-a', totalRefundedCents: 1250 });
    expect(await ledger.balanceCents(alice)).toBe(10_000);
  });

  it('keeps concurrent writes of the service in order (no nonce races)', async () => {
    const ledger = chainCredit(chain.clients, chain.deployment);
    const wallets = Array.from({ length: 6 }, newAddress);
    await Promise.all(wallets.map((w, i) => ledger.grantCents(w, 100 * (i + 1))));
    expect(await Promise.all(wallets.map((w) => ledger.balanceCents(w)))).toEqual([100, 200, 300, 400, 500, 600]);
  });
});
