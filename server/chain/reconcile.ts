import { getAddress, parseEventLogs, zeroAddress, type Address, type Hex, type Log } from 'viem';
import type { Queryable } from '../db/database.ts';
import type { ChainClients } from './client.ts';
import { creditAbi } from './contracts.ts';
import { centsToUnits, grantRef, orderRef } from './credit.ts';
import type { Deployment } from './deploy.ts';

/**
 * The database is the journal of the credit: `faucet_grants` (one row per grant), `payments` (an order's charge,
 * and its refund as a REFUNDED status or a negative row). Every chain write carries its journal entry's ref (a
 * grant's id, an order's id) and happens inside the database transaction that records it, so after a crash the
 * chain can be behind the database (anvil's state was saved before the write) or ahead of it (the write was mined,
 * the transaction never committed). `reconcileCredit` compares every entry and sets the chain to the journal.
 */

type Target = { kind: 'grant'; account: Address; amount: bigint } | { kind: 'charge'; account: Address; amount: bigint; refunded: bigint };
interface ChainEntry {
  ref: Hex;
  account: Address;
  granted: bigint;
  charged: bigint;
  refunded: bigint;
}

export interface ReconcileReport {
  /** Entries the chain lacked or held short of the journal, now set. */
  restored: number;
  /** Entries the chain held beyond the journal (a write whose transaction did not commit), now undone. */
  undone: number;
  /** Entries ahead of the journal left alone (`undoAhead: false`: another instance may be about to commit them). */
  aheadLeft: number;
  /** Units that could not be taken back because the wallet had moved them on the chain. */
  shortfallUnits: bigint;
}

/** What the journal says the chain must hold, by ref. */
async function journalEntries(q: Queryable): Promise<Map<Hex, Target>> {
  const targets = new Map<Hex, Target>();
  const grants = await q.query<{ id: string; wallet_address: string; amount_cents: number | string }>(
    'SELECT id, wallet_address, amount_cents FROM faucet_grants',
  );
  for (const g of grants) targets.set(grantRef(g.id), { kind: 'grant', account: getAddress(g.wallet_address), amount: centsToUnits(Number(g.amount_cents)) });
  const charges = await q.query<{ id: string; wallet_address: string; charged: number | string; refunded: number | string }>(
    `SELECT o.id, o.wallet_address,
            SUM(CASE WHEN p.amount_cents > 0 THEN p.amount_cents ELSE 0 END) AS charged,
            SUM(CASE WHEN p.amount_cents < 0 THEN -p.amount_cents WHEN p.status = 'REFUNDED' THEN p.amount_cents ELSE 0 END) AS refunded
       FROM payments p JOIN orders o ON o.id = p.order_id
      WHERE p.payment_provider = 'CREDIT'
      GROUP BY o.id, o.wallet_address`,
  );
  for (const c of charges) {
    targets.set(orderRef(c.id), {
      kind: 'charge',
      account: getAddress(c.wallet_address),
      amount: centsToUnits(Number(c.charged)),
      refunded: centsToUnits(Number(c.refunded)),
    });
  }
  return targets;
}

/** Every grant and charge the Credit contract has seen, as it holds them now. */
async function chainEntries(clients: ChainClients, deployment: Pick<Deployment, 'credit'>): Promise<ChainEntry[]> {
  const address = deployment.credit;
  const count = await clients.public.readContract({ address, abi: creditAbi, functionName: 'entryCount' });
  const entries: ChainEntry[] = [];
  for (let start = 0n; start < count; start += 500n) {
    const page = await clients.public.readContract({ address, abi: creditAbi, functionName: 'entries', args: [start, 500n] });
    entries.push(...page.map((e) => ({ ref: e.ref, account: getAddress(e.account), granted: e.granted, charged: e.charged, refunded: e.refunded })));
  }
  return entries;
}

const BATCH = 100;

/**
 * Sets every grant and charge on the chain to what the database recorded: the missing ones are granted or charged
 * (and refunded) again, and with `undoAhead` those the database never committed are taken back, so that the order
 * worker's retry charges them anew. Idempotent: a chain that matches gets no transaction. `undoAhead` is for a chain
 * only this service writes to (the anvil it started, reconciled before it serves); on a shared node
 * (CHAIN_RPC_URL) another instance may be between its chain write and its commit, so entries ahead are left.
 */
export async function reconcileCredit(
  clients: ChainClients,
  deployment: Pick<Deployment, 'credit'>,
  q: Queryable,
  options: { undoAhead: boolean },
): Promise<ReconcileReport> {
  const journal = await journalEntries(q);
  const onChain = new Map((await chainEntries(clients, deployment)).map((e) => [e.ref, e]));
  const grants: { ref: Hex; to: Address; amount: bigint }[] = [];
  const charges: { ref: Hex; payer: Address; amount: bigint; refunded: bigint }[] = [];
  const report: ReconcileReport = { restored: 0, undone: 0, aheadLeft: 0, shortfallUnits: 0n };

  for (const [ref, target] of journal) {
    const held = onChain.get(ref);
    if (target.kind === 'grant') {
      if (held && held.account === target.account && held.granted === target.amount) continue;
      const behind = !held || held.granted === 0n;
      if (!behind && !options.undoAhead) {
        report.aheadLeft += 1;
        continue;
      }
      grants.push({ ref, to: target.account, amount: target.amount });
      report.restored += 1;
    } else {
      const charged = held !== undefined && held.granted === 0n && held.account !== zeroAddress;
      if (charged && held.account === target.account && held.charged === target.amount && held.refunded === target.refunded) continue;
      const behind = !charged || (held.account === target.account && held.charged === target.amount && held.refunded < target.refunded);
      if (!behind && !options.undoAhead) {
        report.aheadLeft += 1;
        continue;
      }
      charges.push({ ref, payer: target.account, amount: target.amount, refunded: target.refunded });
      report.restored += 1;
    }
  }
  for (const [ref, held] of onChain) {
    if (journal.has(ref) || (held.granted === 0n && held.account === zeroAddress)) continue;
    if (!options.undoAhead) {
      report.aheadLeft += 1;
      continue;
    }
    if (held.granted > 0n) grants.push({ ref, to: zeroAddress, amount: 0n });
    else charges.push({ ref, payer: zeroAddress, amount: 0n, refunded: 0n });
    report.undone += 1;
  }

  // Grants before charges: a charge restored on a chain that lost everything needs the credit its grant gave.
  for (let i = 0; i < grants.length; i += BATCH) {
    const batch = grants.slice(i, i + BATCH);
    const receipt = await clients.write((w) =>
      w.writeContract({
        address: deployment.credit,
        abi: creditAbi,
        functionName: 'reconcileGrants',
        args: [batch.map((g) => g.ref), batch.map((g) => g.to), batch.map((g) => g.amount)],
      }),
    );
    report.shortfallUnits += shortfalls(receipt.logs);
  }
  for (let i = 0; i < charges.length; i += BATCH) {
    const batch = charges.slice(i, i + BATCH);
    const receipt = await clients.write((w) =>
      w.writeContract({
        address: deployment.credit,
        abi: creditAbi,
        functionName: 'reconcileCharges',
        args: [batch.map((c) => c.ref), batch.map((c) => c.payer), batch.map((c) => c.amount), batch.map((c) => c.refunded)],
      }),
    );
    report.shortfallUnits += shortfalls(receipt.logs);
  }
  return report;
}

/** What the `Reconciled` events of a receipt could not take back. */
const shortfalls = (logs: Log[]): bigint =>
  parseEventLogs({ abi: creditAbi, eventName: 'Reconciled', logs }).reduce((sum, e) => sum + e.args.shortfall, 0n);
