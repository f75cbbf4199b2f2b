import { join } from 'node:path';
import { expect } from 'vitest';
import { zeroAddress } from 'viem';
import { openDatabase } from '../../server/db/database.ts';
import { processInfo, readPidfile } from '../../server/chain/anvil-pidfile.ts';
import { chainClients } from '../../server/chain/client.ts';
import { creditAbi, domainRegistryAbi, usdTokenAbi } from '../../server/chain/contracts.ts';
import { orderRef, UNITS_PER_CENT } from '../../server/chain/credit.ts';
import { readDeployment, deploymentFile } from '../../server/chain/deploy.ts';
import { alice, aliceKey, clientOf, COM_CENTS, expectStatus, FINISHED, names, waitFor, type Round } from './kill-nine-journey.ts';
import { startService, type Running } from './kill-nine-process.ts';
import { USD_FAUCET_UNITS } from '../../server/chain/usd-token.ts';

/** How long after a deployment was mined the service's journal has surely recorded it, even on a loaded machine. */
const JOURNALED_WITHIN_MS = 2000;

/**
 * After a restart: what the journeys were acknowledged is there, by value; orders finish once; the chain equals the
 * database. Ends with the service SIGKILLed; says what the start made of a purchase killed after its settlement.
 */
export async function verify(dataDir: string, rounds: Round[], track: (service: Running) => void): Promise<{ x402Outcome: string; accountsRequired: number }> {
  const service = startService(dataDir);
  track(service);
  let x402Outcome = '';
  let accountsRequired = 0;
  const baseUrl = await service.baseUrl;
  const rpcUrl = await service.rpcUrl;
  const client = clientOf(baseUrl);
  const headers = client.withToken(await client.signIn(aliceKey));
  type OrderView = { order: { id: string; status: string; amountInUSDCents: number }; payments: { amountInUSDCents: number; status: string }[] };
  const orders = new Map<string, OrderView>();
  await waitFor(async () => {
    const items = expectStatus(await client.call('getUserOrders', { headers }), 200, 'getUserOrders').body as { orderId: string }[];
    // A finished order does not change: only the others are read again, all at once.
    const pending = [...new Set(items.map((i) => i.orderId))].filter((id) => !FINISHED.includes(orders.get(id)?.order.status ?? ''));
    await Promise.all(
      pending.map(async (orderId) => orders.set(orderId, expectStatus(await client.call('getOrder', { params: { orderId }, headers }), 200, 'getOrder').body)),
    );
    return [...orders.values()].every((o) => FINISHED.includes(o.order.status));
  });
  for (const { order, payments } of orders.values()) {
    const charges = payments.filter((p) => p.amountInUSDCents > 0);
    expect(charges.length, `order ${order.id} (${order.status}) charged once or not at all`).toBeLessThanOrEqual(1);
    if (order.status === 'SUCCEEDED') expect(charges).toEqual([expect.objectContaining({ amountInUSDCents: order.amountInUSDCents, status: 'COMPLETED' })]);
  }

  const clients = chainClients({ rpcUrl });
  const deployment = (await readDeployment(deploymentFile(dataDir)))!;
  const read = clients.public.readContract;
  const holderOf = async (name: string) => {
    const [holder] = await read({ address: deployment.registry, abi: domainRegistryAbi, functionName: 'domainByName', args: [name] });
    return holder === zeroAddress ? null : holder;
  };
  // What each journey was acknowledged, by value. Smart accounts' code is compared with the journal below.
  const codes = new Map<number, string>();
  const checkRound = async (round: Round) => {
    const { ok, fail, x402 } = names(round.index);
    const what = `round ${round.index} (${round.kill.label})`;
    if (round.orders.ok) {
      const { order, payments } = orders.get(round.orders.ok)!;
      expect([order.status, order.amountInUSDCents, payments.map((p) => [p.amountInUSDCents, p.status])], `${what}: ${ok}`).toEqual([
        'SUCCEEDED',
        COM_CENTS,
        [[COM_CENTS, 'COMPLETED']],
      ]);
      expect(await holderOf(ok), `${what}: ${ok}'s holder`).toBe(alice);
    }
    if (round.orders.fail) {
      const { order, payments } = orders.get(round.orders.fail)!;
      const paid = payments.reduce((sum, p) => sum + (p.amountInUSDCents > 0 && p.status === 'REFUNDED' ? 0 : p.amountInUSDCents), 0);
      expect([order.status, paid], `${what}: ${fail} failed and paid nothing in the end`).toEqual(['FAILED', 0]);
      expect(await holderOf(fail)).toBeNull();
    }
    if (round.x402) {
      const followed = expectStatus(await client.call('getX402Purchase', { params: { purchaseId: round.x402.purchaseId } }), 200, 'getX402Purchase').body;
      expect([followed.orderId, followed.orderStatus, followed.refund], `${what}: the x402 purchase of ${x402}`).toEqual([round.x402.orderId, 'SUCCEEDED', null]);
      expect(await holderOf(x402)).toBe(alice);
    }
    if (round.record) {
      const records = expectStatus(await client.call('getDnsRecords', { query: { zoneName: ok } }), 200, 'getDnsRecords').body as { name: string; type: string; rdata: string }[];
      expect(records.map((r) => [r.name, r.type, r.rdata]), `${what}: the record written`).toContainEqual(['www', 'A', '192.0.2.1']);
    }
    if (round.account) codes.set(round.index, ((await clients.public.getCode({ address: round.account.address })) ?? '0x').toLowerCase());
  };
  await Promise.all(rounds.map(checkRound));
  const balanceCents = expectStatus(await client.call('getBalance', { headers }), 200, 'getBalance').body.totalBalanceInUsdCents as number;
  const chainBalance = await read({ address: deployment.credit, abi: creditAbi, functionName: 'balanceOf', args: [alice] });
  expect(BigInt(balanceCents) * UNITS_PER_CENT, 'the balance the service answers is the chain’s').toBe(chainBalance);
  const usdBalance = await read({ address: deployment.usdToken!, abi: usdTokenAbi, functionName: 'balanceOf', args: [alice] });
  const count = await read({ address: deployment.credit, abi: creditAbi, functionName: 'entryCount' });
  const entries = await read({ address: deployment.credit, abi: creditAbi, functionName: 'entries', args: [0n, count] });
  const allNames = rounds.flatMap((r) => Object.values(names(r.index)));
  const holders = new Map(await Promise.all(allNames.map(async (name) => [name, await holderOf(name)] as const)));
  const anvilPid = (await readPidfile(join(dataDir, 'chain', 'anvil.pid')))!.pid;
  // The database behind it (PGlite takes one process: the service is stopped first).
  await service.kill();
  await expect.poll(() => processInfo(anvilPid), { timeout: 5000, interval: 20 }).toBeNull();

  const db = await openDatabase({ dataDir: join(dataDir, 'db') });
  try {
    const [{ grants }] = await db.query<{ grants: number }>(`SELECT count(*)::int AS grants FROM faucet_grants WHERE wallet_address = $1`, [alice.toLowerCase()]);
    const [{ granted }] = await db.query<{ granted: string | number }>(`SELECT COALESCE(SUM(amount_cents), 0) AS granted FROM faucet_grants WHERE wallet_address = $1`, [
      alice.toLowerCase(),
    ]);
    expect(grants, 'every acknowledged faucet grant is in the journal').toBeGreaterThanOrEqual(rounds.filter((r) => r.faucet).length);
    const payments = await db.query<{ order_id: string; amount_cents: string | number; status: string }>(
      `SELECT p.order_id, p.amount_cents, p.status FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.wallet_address = $1 AND p.payment_provider = 'CREDIT'`,
      [alice.toLowerCase()],
    );
    const open = await db.query(`SELECT id FROM orders WHERE status NOT IN ('SUCCEEDED', 'FAILED', 'PARTIALLY_COMPLETED')`);
    expect(open).toEqual([]);
    let net = Number(granted);
    const perOrder = new Map<string, { charged: number; refunded: number }>();
    for (const p of payments) {
      const cents = Number(p.amount_cents);
      const o = perOrder.get(p.order_id) ?? { charged: 0, refunded: 0 };
      if (cents > 0) o.charged += cents;
      if (cents < 0) o.refunded -= cents;
      else if (p.status === 'REFUNDED') o.refunded += cents;
      perOrder.set(p.order_id, o);
      net -= cents > 0 ? cents : 0;
      net += cents < 0 ? -cents : p.status === 'REFUNDED' ? cents : 0;
    }
    expect(chainBalance, 'the chain balance equals grants − charges + refunds in the database').toBe(BigInt(net) * UNITS_PER_CENT);
    // Every charge on the chain is one the database recorded, for the same amount: nothing charged twice.
    const charged = entries.filter((e) => e.granted === 0n && e.account !== zeroAddress);
    expect(new Set(charged.map((e) => e.ref))).toEqual(new Set([...perOrder.keys()].map((id) => orderRef(id))));
    for (const [id, o] of perOrder) {
      const e = charged.find((c) => c.ref === orderRef(id))!;
      expect([e.charged, e.refunded]).toEqual([BigInt(o.charged) * UNITS_PER_CENT, BigInt(o.refunded) * UNITS_PER_CENT]);
    }

    // x402: no purchase between states; every one the database counts as paid is paid on the chain, once.
    const purchases = await db.query<{ id: string; normalized_domain_name: string; status: string; amount_units: string; refund_units: string | null; order_id: string | null }>(
      `SELECT id, normalized_domain_name, status, amount_units, refund_units, order_id FROM x402_purchases WHERE payer = $1`,
      [alice.toLowerCase()],
    );
    expect(purchases.filter((p) => p.status === 'SETTLING')).toEqual([]);
    const paidUnits = purchases.filter((p) => p.status === 'SETTLED' || p.status === 'REFUNDED').reduce((sum, p) => sum + BigInt(p.amount_units) - BigInt(p.refund_units ?? 0), 0n);
    expect(usdBalance, 'alice’s USD on the chain equals her grants − x402 payments + refunds in the database').toBe(BigInt(grants) * USD_FAUCET_UNITS - paidUnits);
    for (const round of rounds.filter((r) => r.x402)) {
      expect(purchases.find((p) => p.id === round.x402!.purchaseId), `round ${round.index}: the acknowledged purchase`).toMatchObject({ status: 'SETTLED', order_id: round.x402!.orderId });
    }
    // The purchase the service died inside (settled, order not written) was finished at the start: ordered when the
    // chain kept its settlement, failed with nothing taken when the chain lost it with its unsaved state (the USD
    // balance above says which was paid).
    for (const round of rounds.filter((r) => r.kill.env === 'x402-settled:1')) {
      const name = names(round.index).x402;
      const statuses = purchases.filter((p) => p.normalized_domain_name === name).map((p) => p.status);
      expect([['SETTLED'], ['FAILED']], `round ${round.index}: the purchase killed after its settlement`).toContainEqual(statuses);
      expect(holders.get(name)).toBe(statuses[0] === 'SETTLED' ? alice : null);
      x402Outcome = statuses[0] === 'SETTLED' ? 'settled on the chain kept, ordered at start' : 'settlement lost with the chain, failed with nothing taken';
    }

    // A smart account deployed straight on the chain is kept once the service journaled it: one it journaled (or
    // surely had time to, JOURNALED_WITHIN_MS) is on the chain with its code; one it had not may be gone, never other.
    const journal = new Set(
      (await db.query<{ account: string }>(`SELECT account FROM chain_account_journal WHERE kind = 'deployment'`)).map((r) => r.account.toLowerCase()),
    );
    for (const round of rounds.filter((r) => r.account)) {
      const { address, code: deployed, minedAt } = round.account!;
      const code = codes.get(round.index);
      const journaled = journal.has(address.toLowerCase()) || round.kill.env === 'account-deployed:1' || (round.diedAt ?? Infinity) - minedAt >= JOURNALED_WITHIN_MS;
      if (journaled) accountsRequired += 1;
      if (journaled || code !== '0x') expect(code, `round ${round.index} (${round.kill.label}): the smart account ${address}`).toBe(deployed.toLowerCase());
    }

    const domains = new Map(
      (await db.query<{ name: string; owner_address: string }>('SELECT name, owner_address FROM domains')).map((d) => [d.name, d.owner_address]),
    );
    for (const name of allNames) expect(holders.get(name)?.toLowerCase() ?? null, `${name}: chain holder equals the database`).toBe(domains.get(name) ?? null);
    expect([...domains.keys()].filter((n) => !allNames.includes(n))).toEqual([]);
  } finally {
    await db.close();
  }
  return { x402Outcome, accountsRequired };
}

