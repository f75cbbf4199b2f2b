import { endGrantsOnTransfer } from '../access/grants.ts';
import { parseAbiItem, zeroAddress, type Address, type Hash } from 'viem';
import { startPollLoop } from '../support/poll-loop.ts';
import type { ChainClients } from '../chain/client.ts';
import type { Queryable } from '../db/database.ts';
import { DomainError } from '../domain-errors.ts';
import { chainAuthor } from '../history/record-change.ts';
import { changeZone, type PipelineServices, type ZoneCommand } from './pipeline.ts';

/**
 * The service follows the chain: a domain is an ERC-721 token, and its holder may send it to another wallet with any
 * tool (the dashboard, a wallet's NFT tab, a script). Who may edit the zone is read from the chain at each request, so
 * the new holder owns the domain from the block that moved it; this module writes what the move did to the zone's
 * records of it: one history entry per Transfer log (`operation: "transfer"`, `actor.via: "chain"`), the database's
 * mirror of the holder, and auto-renew switched off (it would spend the new holder's credit). Records, DNSSEC and
 * forwarding stay as they were, so the entry moves no serial (`movesSerial: false`).
 */

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)');
/** Blocks read per getLogs request. */
const SPAN = 5_000n;

/** One Transfer log of the registry between two holders (not a mint, not a burn). Addresses lowercase. */
export interface ChainTransfer {
  chainId: number;
  /** The domain, as the database's registry names its token. */
  zoneName: string;
  from: string;
  to: string;
  /** The account that sent the transaction (the holder, or an operator it approved). */
  sender: string;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  /**
   * Found by comparing the database's owner with the chain's holder, not read from a transfer log: recorded only while
   * the database still names `from` (another instance comparing at its own start finds it recorded already).
   */
  unlogged?: true;
}

/**
 * Records a transfer, once: the (chain, transaction, log) row is the guard, taken under the zone's lock in the entry's
 * own transaction, so an instance that reads the same log again, or a second instance, finds it and changes nothing.
 */
function transferCommand(transfer: ChainTransfer): ZoneCommand<boolean> {
  return {
    async apply(tx, zone, { now }) {
      if (transfer.unlogged) {
        const [mirror] = await tx.query<{ owner_address: string }>('SELECT owner_address FROM domains WHERE name = $1', [zone.name]);
        if (mirror?.owner_address.toLowerCase() !== transfer.from) return { result: false, facts: null };
      }
      const taken = await tx.query(
        `INSERT INTO domain_transfers (chain_id, tx_hash, log_index, zone_name, from_address, to_address, block_number, recorded_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING tx_hash`,
        [transfer.chainId, transfer.txHash, transfer.logIndex, zone.name, transfer.from, transfer.to, transfer.blockNumber, now.toISOString()],
      );
      if (taken.length === 0) return { result: false, facts: null };
      await tx.query('UPDATE domains SET owner_address = $2, updated_at = $3 WHERE name = $1', [zone.name, transfer.to, now.toISOString()]);
      await tx.query('UPDATE auto_renew SET enabled = false, updated_at = $2 WHERE domain_name = $1 AND enabled', [zone.name, now.toISOString()]);
      // Grants were the previous holder's to give: they end with the move (and would not act anyway, their grantor no longer owning it).
      await endGrantsOnTransfer(tx, zone.name, now);
      return {
        result: true,
        facts: { changes: [], transfer: { from: transfer.from, to: transfer.to, txHash: transfer.txHash, blockNumber: transfer.blockNumber } },
        movesSerial: false,
      };
    },
  };
}

/** Writes one transfer through the zone-change pipeline; answers whether it was new (false: already recorded). */
export function recordTransfer(services: PipelineServices, transfer: ChainTransfer, at?: Date, reason?: string): Promise<boolean> {
  const author = chainAuthor('transfer', transfer.sender);
  if (reason) author.actor.reason = reason;
  return changeZone(services, { zoneName: transfer.zoneName, by: { author }, command: transferCommand(transfer), now: at });
}

/**
 * Owners the chain answers that no Transfer log between two holders told the follower of: the chain lost the token
 * and was given it back for another wallet (a reset chain rebuilt, a mint by another tool), while the database kept
 * the owner it knew. Each is still an owner change, so it goes through the transfer command like any other (an entry,
 * grants end, auto-renew off): identified by the last log that gave the token to its holder (a mint, which the
 * follower skips), or, when the chain kept no log of it at all, by a marker naming the zone and the block at which
 * the service found it (`unlogged:<zone>@<block>`). Run once the follower has read every log up to the head.
 */
async function recordUnloggedMoves(services: PipelineServices, chain: { clients: ChainClients; registry: Address; chainId: number }, stopped: () => boolean): Promise<void> {
  const { clients, registry, chainId } = chain;
  const rows = await services.db.query<{ name: string; owner_address: string; token_id: string }>('SELECT name, owner_address, token_id FROM domains ORDER BY name');
  for (let i = 0; i < rows.length && !stopped(); i += 50) {
    const batch = rows.slice(i, i + 50);
    const tokens = await Promise.all(batch.map((row) => services.ownership.ownerOf(row.name)));
    for (const [j, row] of batch.entries()) {
      const holder = tokens[j]?.owner.toLowerCase();
      if (!holder || holder === row.owner_address.toLowerCase()) continue;
      const logs = await clients.public.getLogs({ address: registry, event: transferEvent, args: { to: holder as Address, tokenId: BigInt(row.token_id) }, fromBlock: 0n, toBlock: 'latest' });
      const last = logs.at(-1);
      const head = last ? null : await clients.public.getBlockNumber({ cacheTime: 0 });
      const [sent, block] = last
        ? await Promise.all([clients.public.getTransaction({ hash: last.transactionHash as Hash }), clients.public.getBlock({ blockNumber: last.blockNumber! })])
        : [null, await clients.public.getBlock({ blockNumber: head! })];
      const transfer: ChainTransfer = {
        chainId,
        zoneName: row.name,
        from: row.owner_address.toLowerCase(),
        to: holder,
        sender: sent?.from.toLowerCase() ?? holder,
        txHash: last?.transactionHash ?? `unlogged:${row.name}@${head}`,
        logIndex: last?.logIndex ?? 0,
        blockNumber: Number(block.number),
        unlogged: true,
      };
      const reason = `the chain held ${row.name} for ${holder} when the service read it, with no transfer from ${transfer.from} on record`;
      await recordTransfer(services, transfer, new Date(Number(block.timestamp) * 1000), reason);
    }
  }
}


export interface TransferFollower {
  /** Reads every block mined until now and records its transfers; resolves when they are recorded. */
  sync(): Promise<void>;
  stop(): Promise<void>;
}

async function cursorOf(q: Queryable, registry: string): Promise<bigint | null> {
  const [row] = await q.query<{ last_block: string }>('SELECT last_block FROM chain_follow_cursor WHERE registry = $1', [registry]);
  return row ? BigInt(row.last_block) : null;
}

async function moveCursor(q: Queryable, registry: string, chainId: number, block: bigint, now: Date, reset = false): Promise<void> {
  await q.query(
    `INSERT INTO chain_follow_cursor (registry, chain_id, last_block, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (registry) DO UPDATE SET last_block = ${reset ? 'EXCLUDED.last_block' : 'GREATEST(chain_follow_cursor.last_block, EXCLUDED.last_block)'}, updated_at = EXCLUDED.updated_at`,
    [registry, chainId, block.toString(), now.toISOString()],
  );
}

/**
 * Reads the registry's Transfer logs from the last block read (kept in the database, shared by every instance) to the
 * head, every `pollMs`, and records each transfer between two holders. A log is recorded exactly once however many
 * instances read it and whatever stops one midway (kill -9 included: the cursor moves only after the logs it covers
 * are recorded, and recording one again does nothing). A chain whose head is behind the cursor lost its state (or is
 * a new one): it is read again from its start. A token the database does not know (minted by another tool) is
 * skipped: there is no zone to write to. Once it has read up to the head after it starts (or after such a reset), it
 * records the owner changes no log told it of (`recordUnloggedMoves`), so every owner change passes the transfer
 * command.
 */
export function startTransferFollower(
  services: PipelineServices,
  chain: { clients: ChainClients; registry: Address; chainId: number },
  options: { pollMs?: number; onError?: (error: Error) => void; onRecorded?: (transfer: ChainTransfer) => void } = {},
): TransferFollower {
  const { clients, registry, chainId } = chain;
  const key = registry.toLowerCase();
  const pollMs = options.pollMs ?? 500;

  const zoneOf = async (tokenId: bigint): Promise<string | null> => {
    const [row] = await services.db.query<{ name: string }>('SELECT name FROM domains WHERE token_id = $1', [tokenId.toString()]);
    return row?.name ?? null;
  };

  // Whether this follower compared every domain's owner with the chain since it started or found the chain reset.
  let ownersCompared = false;
  const catchUp = async (stopped: () => boolean) => {
    const head = await clients.public.getBlockNumber({ cacheTime: 0 });
    const cursor = await cursorOf(services.db, key);
    let from = cursor === null ? 0n : cursor + 1n;
    if (cursor !== null && cursor > head) {
      from = 0n;
      ownersCompared = false;
      await moveCursor(services.db, key, chainId, -1n, services.now(), true);
    }
    while (from <= head && !stopped()) {
      const to = from + SPAN - 1n < head ? from + SPAN - 1n : head;
      const logs = await clients.public.getLogs({ address: registry, event: transferEvent, fromBlock: from, toBlock: to });
      for (const log of logs) {
        const { from: holder, to: receiver, tokenId } = log.args;
        if (!holder || !receiver || tokenId === undefined || holder === zeroAddress || receiver === zeroAddress) continue;
        const zoneName = await zoneOf(tokenId);
        if (!zoneName) continue;
        const txHash = log.transactionHash as Hash;
        const [sent, block] = await Promise.all([clients.public.getTransaction({ hash: txHash }), clients.public.getBlock({ blockNumber: log.blockNumber! })]);
        const transfer: ChainTransfer = {
          chainId,
          zoneName,
          from: holder.toLowerCase(),
          to: receiver.toLowerCase(),
          sender: sent.from.toLowerCase(),
          txHash,
          logIndex: log.logIndex!,
          blockNumber: Number(log.blockNumber),
        };
        try {
          if (await recordTransfer(services, transfer, new Date(Number(block.timestamp) * 1000))) options.onRecorded?.(transfer);
        } catch (error) {
          // A zone released (deleted) since: nothing to write to.
          if (!(error instanceof DomainError && error.kind === 'not-found')) throw error;
        }
      }
      await moveCursor(services.db, key, chainId, to, services.now());
      from = to + 1n;
    }
    if (ownersCompared || stopped()) return;
    await recordUnloggedMoves(services, chain, stopped);
    ownersCompared = !stopped();
  };
  return startPollLoop(catchUp, { pollMs, onError: options.onError });
}
