import { createTestClient, getAddress, http, keccak256, toHex, zeroAddress, type Address, type Hex, type SignedAuthorization } from 'viem';
import { startPollLoop } from '../support/poll-loop.ts';
import { recoverAuthorizationAddress } from 'viem/utils';
import type { Database, Queryable } from '../db/database.ts';
import type { ChainClients } from './client.ts';
import { crashPoint } from './crash-points.ts';

/**
 * The journal of contract accounts on the chain the service owns. Wallets, tests and e2e deploy smart accounts
 * (a factory call that CREATE2s one) and delegate EOAs with EIP-7702 straight on the chain, not through the service,
 * so the database never heard of them and a kill -9 within CHAIN_STATE_INTERVAL_S of one lost it with the chain's
 * unsaved state. The service now reads every block as it is mined (`startAccountJournal`) and records each account
 * made in `chain_account_journal`; at start `reconcileAccounts` makes again the ones the chain lacks.
 */

type Entry =
  | { kind: 'deployment'; account: Address; callTo: Address; callData: Hex; codeHash: Hex; tx: Hex; block: bigint; position: number }
  | { kind: 'delegation'; account: Address; authorization: SignedAuthorization; tx: Hex; block: bigint; position: number };

/** The code an EIP-7702 delegation leaves on the EOA (none for a delegation to the zero address, which clears it). */
export const delegationCode = (to: Address): Hex => (to === zeroAddress ? '0x' : `0xef0100${to.slice(2).toLowerCase()}`);

interface Trace {
  type: string;
  error?: string;
  result?: { address?: Address };
  traceAddress: number[];
  transactionPosition: number;
}

/** The accounts one block made: contracts created inside a call (a factory's), and delegations that took effect. */
async function accountsOf(clients: ChainClients, blockNumber: bigint): Promise<Entry[]> {
  const block = await clients.public.getBlock({ blockNumber, includeTransactions: true });
  if (block.transactions.length === 0) return [];
  const entries: Entry[] = [];
  const codeAt = async (address: Address) => ((await clients.public.getCode({ address, blockNumber })) ?? '0x').toLowerCase() as Hex;

  if (block.transactions.some((tx) => tx.to)) {
    const traces = (await clients.public.request({ method: 'trace_block' as never, params: [toHex(blockNumber)] as never })) as Trace[];
    for (const trace of traces) {
      const tx = block.transactions[trace.transactionPosition];
      const account = trace.result?.address;
      // A contract created by a transaction of its own (no factory) lands at its sender's nonce: not one to make again.
      if (trace.type !== 'create' || trace.error || !account || trace.traceAddress.length === 0 || !tx?.to) continue;
      const code = await codeAt(account);
      if (code === '0x') continue;
      entries.push({ kind: 'deployment', account: getAddress(account), callTo: tx.to, callData: tx.input, codeHash: keccak256(code), tx: tx.hash, block: blockNumber, position: tx.transactionIndex });
    }
  }

  // The last authorisation of each EOA in the block is the one that stands; one the chain skipped (a stale nonce,
  // another chain) left no code, and is not journaled.
  const delegations = new Map<Address, Entry & { kind: 'delegation' }>();
  for (const tx of block.transactions) {
    for (const authorization of tx.authorizationList ?? []) {
      const account = await recoverAuthorizationAddress({ authorization }).catch(() => null);
      if (account) delegations.set(account, { kind: 'delegation', account, authorization, tx: tx.hash, block: blockNumber, position: tx.transactionIndex });
    }
  }
  for (const entry of delegations.values()) {
    if ((await codeAt(entry.account)) === delegationCode(getAddress(entry.authorization.address))) entries.push(entry);
  }
  return entries;
}

async function record(q: Queryable, chainId: number, entry: Entry): Promise<void> {
  const key = entry.kind === 'deployment' ? `deployment:${entry.account}` : `delegation:${entry.account}:${entry.authorization.nonce}`;
  const deployment = entry.kind === 'deployment' ? entry : null;
  const authorization = entry.kind === 'delegation' ? JSON.stringify(entry.authorization) : null;
  await q.query(
    `INSERT INTO chain_account_journal (entry_key, chain_id, kind, account, call_to, call_data, code_hash, signed_authorization, transaction_hash, block_number, position)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11)
     ON CONFLICT (entry_key) DO UPDATE SET call_to = EXCLUDED.call_to, call_data = EXCLUDED.call_data, code_hash = EXCLUDED.code_hash,
       signed_authorization = EXCLUDED.signed_authorization, transaction_hash = EXCLUDED.transaction_hash, block_number = EXCLUDED.block_number,
       position = EXCLUDED.position, recorded_at = now()`,
    [key, chainId, entry.kind, entry.account, deployment?.callTo ?? null, deployment?.callData ?? null, deployment?.codeHash ?? null, authorization, entry.tx, entry.block.toString(), entry.position],
  );
}

export interface AccountJournal {
  /** Journals every block mined until now; resolves when they are recorded. */
  sync(): Promise<void>;
  /** Stops watching (a round in flight finishes). */
  stop(): Promise<void>;
}

/**
 * Watches the chain from block `from` on, every `pollMs`, and journals the accounts each block made, in the same
 * order. The window a crash can still lose is between a block being mined and its round here (one poll, 50 ms by
 * default), where before it was up to the next state save.
 */
export function startAccountJournal(clients: ChainClients, db: Database, options: { from: bigint; pollMs?: number; onError?: (error: Error) => void }): AccountJournal {
  const pollMs = options.pollMs ?? 50;
  let next = options.from;

  const catchUp = async () => {
    const head = await clients.public.getBlockNumber({ cacheTime: 0 });
    for (; next <= head; next += 1n) {
      const entries = await accountsOf(clients, next);
      if (entries.length === 0) continue;
      await db.transaction(async (tx) => {
        for (const entry of entries) await record(tx, clients.chain.id, entry);
      });
      // The kill -9 suite dies here: a smart account deployed and journaled, the chain's state maybe not saved.
      for (const entry of entries) if (entry.kind === 'deployment') crashPoint('account-deployed');
    }
  };
  return startPollLoop(catchUp, { pollMs, onError: options.onError });
}

export interface AccountReplay {
  /** Smart accounts the chain had lost, deployed again through their factory call. */
  deployed: number;
  /** EIP-7702 delegations the chain had lost, set again. */
  delegated: number;
  /** Entries that could not be made again (named in the start-up message). */
  unrestored: string[];
}

interface JournalRow {
  kind: 'deployment' | 'delegation';
  account: Address;
  call_to: Address | null;
  call_data: Hex | null;
  code_hash: Hex | null;
  signed_authorization: SignedAuthorization | null;
}

/**
 * Makes again every journaled account the chain lacks, in the order they were made: a deployment by sending its
 * factory call again (CREATE2 from the factory: the same address whoever sends it); then each EOA's last delegation,
 * by sending its signed authorisation again and, when the EOA's nonce moved on since (the chain refuses a stale
 * one), on the anvil this service owns by setting the delegation's code (`anvil_setCode`). Idempotent.
 */
export async function reconcileAccounts(clients: ChainClients, q: Queryable, options: { ownsNode: boolean }): Promise<AccountReplay> {
  const rows = await q.query<JournalRow>(
    'SELECT kind, account, call_to, call_data, code_hash, signed_authorization FROM chain_account_journal WHERE chain_id = $1 ORDER BY block_number, position',
    [clients.chain.id],
  );
  const report: AccountReplay = { deployed: 0, delegated: 0, unrestored: [] };
  const codeOf = async (address: Address) => ((await clients.public.getCode({ address })) ?? '0x').toLowerCase() as Hex;

  for (const row of rows.filter((r) => r.kind === 'deployment')) {
    if ((await codeOf(row.account)) !== '0x') continue;
    try {
      await clients.write((w) => w.sendTransaction({ to: row.call_to!, data: row.call_data! }));
    } catch {
      // Judged by the code below.
    }
    const code = await codeOf(row.account);
    if (code !== '0x' && keccak256(code) === row.code_hash) report.deployed += 1;
    else report.unrestored.push(`smart account ${row.account}`);
  }

  const last = new Map<Address, SignedAuthorization>();
  for (const row of rows) if (row.kind === 'delegation') last.set(getAddress(row.account), row.signed_authorization!);
  for (const [account, authorization] of last) {
    const wanted = delegationCode(getAddress(authorization.address));
    if ((await codeOf(account)) === wanted) continue;
    try {
      await clients.write((w) => w.sendTransaction({ authorizationList: [authorization], to: account, data: '0x' }));
    } catch {
      // Judged by the code below.
    }
    if ((await codeOf(account)) !== wanted && options.ownsNode) {
      const anvil = createTestClient({ mode: 'anvil', chain: clients.chain, transport: http(clients.chain.rpcUrls.default.http[0]) });
      await anvil.setCode({ address: account, bytecode: wanted });
    }
    if ((await codeOf(account)) === wanted) report.delegated += 1;
    else report.unrestored.push(`delegation of ${account}`);
  }
  return report;
}
