import { getAddress, zeroAddress } from 'viem';
import { addYears } from '#core/dates.ts';
import type { ChainClients } from './client.ts';
import type { Queryable } from '../db/database.ts';
import { domainRegistryAbi } from './contracts.ts';
import type { Deployment } from './deploy.ts';
import { revertName } from './errors.ts';
import { tokenIdOf, type DomainToken, type Ownership } from '../ownership/ownership.ts';

export interface ChainOwnershipOptions {
  /**
   * Also records each mint here, inside the caller's transaction (the database registry, whose `domains` row
   * carries the parking flag and answers availability). Who owns a domain is still read from the chain only.
   */
  mirror?: Ownership;
}

/**
 * Ownership read from the DomainRegistry NFT: `ownerOf` is the token's holder, so transferring the NFT on the
 * chain moves the right to edit the domain's DNS with it. `q` is passed to the mirror only: the chain has no
 * transactions to join.
 */
export function chainOwnership(clients: ChainClients, deployment: Pick<Deployment, 'registry' | 'chainId'>, options: ChainOwnershipOptions = {}): Ownership {
  const address = deployment.registry;
  const token = (name: string, holder: string, tokenId: bigint, expiry: bigint | number): DomainToken => ({
    name,
    owner: holder.toLowerCase(),
    tokenId: tokenId.toString(),
    chainId: deployment.chainId,
    expiresAt: new Date(Number(expiry) * 1000),
  });
  const ownerOf = async (name: string): Promise<DomainToken | null> => {
    const [holder, tokenId, expiry] = await clients.public.readContract({ address, abi: domainRegistryAbi, functionName: 'domainByName', args: [name] });
    return holder === zeroAddress ? null : token(name, holder, tokenId, expiry);
  };
  return {
    registry: { chainId: deployment.chainId, address: getAddress(address) },
    ownerOf: (name) => ownerOf(name),
    async mint(input, q) {
      const { name, to, years, now } = input;
      const expiresAt = addYears(now, years);
      const expiry = BigInt(Math.floor(expiresAt.getTime() / 1000));
      // The mirror first: if it refuses (the name is taken there), nothing reaches the chain.
      if (options.mirror) await options.mirror.mint(input, q);
      try {
        const receipt = await clients.write((w) => w.writeContract({ address, abi: domainRegistryAbi, functionName: 'mint', args: [getAddress(to), name, expiry] }));
        if (options.mirror && q) await noteChainBlock(q, name, receipt.blockNumber);
      } catch (error) {
        // A retry after the chain took the mint but the caller's transaction did not commit: the same wallet
        // already holds it, so the mint is done (in a block not known here: the next start reads it).
        const existing = revertName(error) === 'AlreadyRegistered' ? await ownerOf(name) : null;
        if (existing && existing.owner === to.toLowerCase()) return existing;
        throw error;
      }
      return token(name, to, BigInt(tokenIdOf(name)), expiry);
    },
    async release(name, q) {
      // Burned once: a token already gone (another instance, or a try a crash cut short) is released already.
      if (await ownerOf(name)) {
        try {
          await clients.write((w) => w.writeContract({ address, abi: domainRegistryAbi, functionName: 'burn', args: [name] }));
        } catch (error) {
          if (await ownerOf(name)) throw error;
        }
      }
      await options.mirror?.release(name, q);
    },
    async setExpiry(name, expiresAt, q) {
      // The mirror first, inside the caller's transaction; the chain's write is absolute, so a retry after a crash
      // between the two (the chain moved, the database's transaction lost) writes the same expiry again.
      if (options.mirror) await options.mirror.setExpiry(name, expiresAt, q);
      const expiry = BigInt(Math.floor(expiresAt.getTime() / 1000));
      const receipt = await clients.write((w) => w.writeContract({ address, abi: domainRegistryAbi, functionName: 'setExpiry', args: [name, expiry] }));
      if (options.mirror && q) await noteChainBlock(q, name, receipt.blockNumber);
    },
    async domainsOf(wallet) {
      const domains = await clients.public.readContract({ address, abi: domainRegistryAbi, functionName: 'domainsOf', args: [getAddress(wallet)] });
      return domains.map((d) => token(d.name, wallet, d.tokenId, d.expiresAt)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
  };
}

/** Notes, in the caller's transaction, the block of the chain write that holds a domain's mint or expiry. */
async function noteChainBlock(q: Queryable, name: string, block: bigint): Promise<void> {
  await q.query('UPDATE domains SET chain_block = $1 WHERE name = $2', [block.toString(), name]);
}

/**
 * The block the last start left this registry's chain at, when the chain still holds it with the same hash (so every
 * block before it too, unchanged); null when there is none, or the chain lost it (its state saved before it, or a new
 * chain).
 */
async function intactMark(clients: ChainClients, registry: string, q: Queryable): Promise<bigint | null> {
  const [mark] = await q.query<{ block: string | number; hash: string }>('SELECT block, hash FROM chain_marks WHERE registry = $1', [registry.toLowerCase()]);
  if (!mark) return null;
  const held = await clients.public.getBlock({ blockNumber: BigInt(mark.block) }).catch(() => null);
  return held?.hash === mark.hash ? BigInt(mark.block) : null;
}

type RegistryRow = { name: string; owner_address: string; expires_at: Date | string };

/** The rows a start compares with the chain: every one, or past an intact mark only those written after it or not noted. */
async function rowsToCompare(clients: ChainClients, registry: string, q: Queryable): Promise<RegistryRow[]> {
  const mark = await intactMark(clients, registry, q);
  return q.query<RegistryRow>('SELECT name, owner_address, expires_at FROM domains WHERE $1::bigint IS NULL OR chain_block IS NULL OR chain_block > $1 ORDER BY name', [
    mark === null ? null : mark.toString(),
  ]);
}

/**
 * Mints again, from the database registry, every domain the chain does not know: after the chain lost state the
 * database kept (a crash after the last state save, or a damaged or deleted state file). Each goes to the wallet the
 * database recorded, with its recorded expiry. A domain the chain holds for another wallet changed owner on the
 * chain: this leaves the database's row as it is, for the transfer follower (server/zones/transfers.ts) records every
 * owner change through the transfer command (its history entry, grants ended, auto-renew off), the ones no log
 * tells of included, once it has read the chain after the start. Returns the names restored. Run at start-up, after
 * `ensureDeployment`. (A mint the chain took whose transaction did not commit needs nothing here: its order is still
 * PROCESSING, and the worker's retry finds the NFT with the receiver and keeps it.)
 *
 * Only the rows the chain may lack are read (`rowsToCompare`): with the chain as the last start left it, the domains
 * written since; so a start takes the same time with a million domains as with ten. The rows compared are then noted
 * at the head, and the head becomes the registry's mark.
 */
export async function restoreMissingMints(clients: ChainClients, deployment: Pick<Deployment, 'registry' | 'chainId'>, q: Queryable): Promise<string[]> {
  const address = deployment.registry;
  const rows = await rowsToCompare(clients, address, q);
  const restored: string[] = [];
  for (let i = 0; i < rows.length; i += 50) {
    const batch = rows.slice(i, i + 50);
    const holders = await Promise.all(
      batch.map((row) => clients.public.readContract({ address, abi: domainRegistryAbi, functionName: 'domainByName', args: [row.name] })),
    );
    for (const [j, row] of batch.entries()) {
      const holder = holders[j][0];
      const expiry = BigInt(Math.floor(new Date(row.expires_at).getTime() / 1000));
      if (holder !== zeroAddress) {
        // A renewal the database recorded and the chain lost (its state saved before the renewal): set it again.
        if (holders[j][2] < expiry) await clients.write((w) => w.writeContract({ address, abi: domainRegistryAbi, functionName: 'setExpiry', args: [row.name, expiry] }));
        continue;
      }
      await clients.write((w) => w.writeContract({ address, abi: domainRegistryAbi, functionName: 'mint', args: [getAddress(row.owner_address), row.name, expiry] }));
      restored.push(row.name);
    }
  }
  await markHead(clients, address, q, rows.map((row) => row.name));
  return restored;
}

/** Every name compared is held by the chain at its head now: noted there, and the head is the registry's new mark. */
async function markHead(clients: ChainClients, registry: string, q: Queryable, compared: string[]): Promise<void> {
  const head = await clients.public.getBlock({ blockTag: 'latest' });
  for (let i = 0; i < compared.length; i += 1000) {
    await q.query('UPDATE domains SET chain_block = $1 WHERE name = ANY($2) AND (chain_block IS NULL OR chain_block > $1)', [head.number.toString(), compared.slice(i, i + 1000)]);
  }
  await q.query(
    'INSERT INTO chain_marks (registry, block, hash) VALUES ($1, $2, $3) ON CONFLICT (registry) DO UPDATE SET block = EXCLUDED.block, hash = EXCLUDED.hash',
    [registry.toLowerCase(), head.number.toString(), head.hash],
  );
}
