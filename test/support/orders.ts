import { randomUUID } from 'node:crypto';
import { vi } from 'vitest';
import type { Hex } from 'viem';
import type { Queryable } from '../../server/db/database.ts';
import type { TestClient } from './client.ts';

const FINISHED = ['SUCCEEDED', 'FAILED', 'PARTIALLY_COMPLETED'];

/** Signs a registration for `key` and waits until the worker finishes it; answers the order's details. */
export async function registerAndWait(
  client: TestClient,
  key: Hex,
  normalizedDomainName: string,
  options: { fields?: Record<string, unknown>; timeoutMs?: number } = {},
) {
  const created = await client.signed(key, 'registerDomain', { normalizedDomainName, durationInYears: 1, ...options.fields });
  if (created.status !== 200) throw new Error(`registering ${normalizedDomainName}: ${created.status} ${JSON.stringify(created.body)}`);
  const headers = client.withToken(await client.signIn(key));
  return vi.waitFor(
    async () => {
      const reply = await client.call('getOrder', { params: { orderId: created.body.id }, headers });
      if (!FINISHED.includes(reply.body?.order?.status)) throw new Error(`order ${created.body.id} is ${reply.body?.order?.status}`);
      return reply.body;
    },
    { timeout: options.timeoutMs ?? 20_000, interval: 25 },
  );
}

/** An order as creation leaves it (CREATED, one item), for a wallet whose credit may have gone since. */
export async function insertOrder(q: Queryable, input: { wallet: string; name: string; cents: number }): Promise<string> {
  const id = randomUUID();
  const wallet = input.wallet.toLowerCase();
  await q.query(
    `INSERT INTO orders (id, wallet_address, status, amount_cents, nft_wallet_address, nft_chain_id, metadata) VALUES ($1, $2, 'CREATED', $3, $2, 31337, '{}')`,
    [id, wallet, input.cents],
  );
  await q.query(
    `INSERT INTO order_items (id, order_id, normalized_domain_name, duration_in_years, amount_cents, status, metadata) VALUES ($1, $2, $3, 1, $4, 'CREATED', '{}')`,
    [randomUUID(), id, input.name, input.cents],
  );
  return id;
}
