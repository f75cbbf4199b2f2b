import type { ChainClients } from './client.ts';

/**
 * Brings the local chain's block time up to `target` (the service's clock), never back: mines a block to read the
 * node's time as it stands, then moves it forward by the difference (anvil's `evm_increaseTime`) and mines again, so
 * the next block, and every later one, is stamped at the service's time. Idempotent: a chain already there is left
 * as it is, so every instance may call it after the test clock moved. Answers the chain's time after.
 */
export async function syncChainTime(clients: ChainClients, target: Date): Promise<Date> {
  const rpc = clients.public.request as unknown as (args: { method: string; params?: unknown[] }) => Promise<unknown>;
  const mined = async () => {
    await rpc({ method: 'evm_mine', params: [] });
    const block = await clients.public.getBlock({ blockTag: 'latest' });
    return Number(block.timestamp);
  };
  const chainSeconds = await mined();
  const behind = Math.floor(target.getTime() / 1000) - chainSeconds;
  if (behind <= 0) return new Date(chainSeconds * 1000);
  await rpc({ method: 'evm_increaseTime', params: [behind] });
  return new Date((await mined()) * 1000);
}
