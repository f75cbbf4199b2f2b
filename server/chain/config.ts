import { z } from 'zod';

/**
 * The chain settings, to merge into the service's configuration (`configSchema.extend(chainConfigShape)`):
 * - CHAIN: `anvil` starts a local chain with the service and keeps it in DATA_DIR/chain; `none` (default) keeps
 *   ownership and credit in the database (fast tests).
 * - CHAIN_RPC_URL: with CHAIN=anvil, use this running node instead of starting one (e.g. one shared by an e2e run).
 * - CHAIN_PORT: the port of the started anvil (127.0.0.1); 0 (default) picks a free one. Choose it when something
 *   else must reach the chain too (the dashboard's wagmi transport, an e2e run transferring an NFT).
 * - CHAIN_STATE_INTERVAL_S: seconds between saves of the started anvil's state (written atomically by the service,
 *   only when it changed; also saved when stopped). What the database acknowledged never depends on it: start-up
 *   reconciles the chain with the database (docs/service/crash-safety.md).
 * - CHAIN_FOLLOW_MS: milliseconds between reads of the registry's Transfer logs (a domain sent to another wallet with
 *   any tool is written to its zone's history within about this long after its block).
 */
export const chainConfigShape = {
  CHAIN: z.enum(['anvil', 'none']).default('none'),
  CHAIN_RPC_URL: z.string().url().optional(),
  CHAIN_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  CHAIN_STATE_INTERVAL_S: z.coerce.number().int().min(1).default(2),
  CHAIN_FOLLOW_MS: z.coerce.number().int().min(10).max(60_000).default(500),
};
