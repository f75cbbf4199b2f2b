import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { openDatabase, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { insertOrder } from '../../test/support/orders.ts';
import { chainCredit } from './credit.ts';
import { ensureDeployment, type Deployment } from './deploy.ts';
import { reconcileCredit } from './reconcile.ts';
import { startTestChain, type TestChain } from '../../test/chain/testing.ts';

let chain: TestChain;
let db: Database;
/** Deployed by the first test; the later ones continue on it, with the journal the earlier ones left. */
let deployment: Deployment;
beforeAll(async () => {
  chain = await startTestChain();
  db = await openDatabase({ dataDir: 'memory://' });
  await migrate(db);
});
afterAll(async () => {
  await db?.close();
  await chain?.close();
});

const wallet = () => privateKeyToAccount(generatePrivateKey()).address;
const grantRow = async (to: string, cents: number) => {
  const id = randomUUID();
  await db.query('INSERT INTO faucet_grants (id, wallet_address, amount_cents) VALUES ($1, $2, $3)', [id, to.toLowerCase(), cents]);
  return id;
};
const payment = (orderId: string, cents: number, status: 'COMPLETED' | 'REFUNDED') =>
  db.query(`INSERT INTO payments (id, order_id, amount_cents, status) VALUES ($1, $2, $3, $4)`, [randomUUID(), orderId, cents, status]);

describe('reconcileCredit: the chain is set to the database journal', () => {
  it('rebuilds a chain that lost everything, then sends nothing when it matches', async () => {
    const alice = wallet();
    await grantRow(alice, 10_000);
    const paid = await insertOrder(db, { wallet: alice, name: 'paid.com', cents: 1250 });
    await payment(paid, 1250, 'COMPLETED');
    const refunded = await insertOrder(db, { wallet: alice, name: 'fail-x.com', cents: 1400 });
    await payment(refunded, 1400, 'REFUNDED');
    const partly = await insertOrder(db, { wallet: alice, name: 'two.com', cents: 2000 });
    await payment(partly, 2000, 'COMPLETED');
    await payment(partly, -700, 'REFUNDED');

    // A new chain: the contracts again, none of the journal.
    deployment = (await ensureDeployment(chain.clients)).deployment;
    const first = await reconcileCredit(chain.clients, deployment, db, { undoAhead: true });
    expect(first).toMatchObject({ restored: 4, undone: 0, aheadLeft: 0, shortfallUnits: 0n });
    const credit = chainCredit(chain.clients, deployment);
    expect(await credit.balanceCents(alice)).toBe(10_000 - 1250 - 2000 + 700);
    const block = await chain.clients.public.getBlockNumber();
    expect(await reconcileCredit(chain.clients, deployment, db, { undoAhead: true })).toMatchObject({ restored: 0, undone: 0 });
    expect(await chain.clients.public.getBlockNumber()).toBe(block);
    // The restored charge is the order's: charging it again (a retry) takes nothing more.
    expect(await credit.charge({ wallet: alice, cents: 1250, orderId: paid })).toBe('charged');
    expect(await credit.balanceCents(alice)).toBe(7450);
  });

  it('undoes writes the database never committed, so that a retry charges anew; on a shared node it leaves them', async () => {
    const credit = chainCredit(chain.clients, deployment);
    const bob = wallet();
    const kept = await grantRow(bob, 10_000);
    await credit.grantCents(bob, 10_000, undefined, kept);
    // The chain took these, the database rolled back: a grant, and a charge of an order still CREATED.
    await credit.grantCents(bob, 10_000, undefined, randomUUID());
    const order = await insertOrder(db, { wallet: bob, name: 'retry.com', cents: 1250 });
    expect(await credit.charge({ wallet: bob, cents: 1250, orderId: order })).toBe('charged');
    expect(await credit.balanceCents(bob)).toBe(18_750);

    expect(await reconcileCredit(chain.clients, deployment, db, { undoAhead: false })).toMatchObject({ restored: 0, undone: 0, aheadLeft: 2 });
    expect(await credit.balanceCents(bob)).toBe(18_750);
    expect(await reconcileCredit(chain.clients, deployment, db, { undoAhead: true })).toMatchObject({ restored: 0, undone: 2 });
    expect(await credit.balanceCents(bob)).toBe(10_000);
    // The worker's retry of the order charges it for real now.
    expect(await credit.charge({ wallet: bob, cents: 1250, orderId: order })).toBe('charged');
    expect(await credit.balanceCents(bob)).toBe(8750);
    await payment(order, 1250, 'COMPLETED'); // the retry's transaction commits
    expect(await reconcileCredit(chain.clients, deployment, db, { undoAhead: true })).toMatchObject({ restored: 0, undone: 0 });
  });

  it('counts what cannot be taken back when the wallet moved the credit away on the chain', async () => {
    const credit = chainCredit(chain.clients, deployment);
    const holder = privateKeyToAccount(generatePrivateKey());
    await chain.fund(holder.address);
    await credit.grantCents(holder.address, 5000, undefined, randomUUID());
    const { creditAbi } = await import('./contracts.ts');
    const hash = await chain.clients.wallet.writeContract({
      account: holder,
      address: deployment.credit,
      abi: creditAbi,
      functionName: 'transfer',
      args: [wallet(), 3000n * 10n ** 16n],
    });
    await chain.clients.public.waitForTransactionReceipt({ hash });
    const report = await reconcileCredit(chain.clients, deployment, db, { undoAhead: true });
    expect(report.undone).toBe(1);
    expect(report.shortfallUnits).toBe(3000n * 10n ** 16n);
    expect(await credit.balanceCents(holder.address)).toBe(0);
  });
});
