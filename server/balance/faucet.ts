import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { CreditStore } from './credit-store.ts';
import { DomainError } from '../domain-errors.ts';
import { USD_FAUCET_UNITS, type UsdLedger } from '../chain/usd-token.ts';

const FAUCET_GRANT_CENTS = 10_000;

/**
 * Credits 100.00 (and, on a chain, 100 USDC) to the wallet at once (the local faucet answers `completed`), unless the wallet had a grant
 * within the cooldown: then 429 with Retry-After and `nextEligibleAt`.
 */
export async function grantFaucet(
  db: Database,
  credit: CreditStore,
  wallet: string,
  options: { cooldownSeconds: number; now: Date; usd?: Pick<UsdLedger, 'grant'> },
): Promise<{ status: 'completed'; walletAddress: string; nextEligibleAt: string | null }> {
  const { cooldownSeconds, now } = options;
  const address = wallet.toLowerCase();
  return db.transaction(async (tx) => {
    if (cooldownSeconds > 0) {
      // Serialises grants to one wallet so that two quick requests cannot both pass the cooldown.
      await tx.query(`INSERT INTO balances (wallet_address, balance_cents) VALUES ($1, 0) ON CONFLICT (wallet_address) DO NOTHING`, [address]);
      await tx.query('SELECT 1 FROM balances WHERE wallet_address = $1 FOR UPDATE', [address]);
      const [last] = await tx.query<{ granted_at: Date | string }>(
        'SELECT granted_at FROM faucet_grants WHERE wallet_address = $1 ORDER BY granted_at DESC LIMIT 1',
        [address],
      );
      if (last) {
        const eligible = new Date(new Date(last.granted_at).getTime() + cooldownSeconds * 1000);
        if (eligible > now) {
          const wait = Math.max(1, Math.ceil((eligible.getTime() - now.getTime()) / 1000));
          throw new DomainError(
            'too-many-requests',
            `The faucet gives once every ${cooldownSeconds} s; try again at ${eligible.toISOString()}`,
            { nextEligibleAt: eligible.toISOString() },
            wait,
          );
        }
      }
    }
    const grantId = randomUUID();
    await tx.query('INSERT INTO faucet_grants (id, wallet_address, amount_cents, granted_at) VALUES ($1, $2, $3, $4)', [
      grantId,
      address,
      FAUCET_GRANT_CENTS,
      now.toISOString(),
    ]);
    // After the grant's row: a chain that refuses the grant rolls the row back, so no cooldown without credit. The
    // row is the journal entry (the chain's grant carries its id): a grant the chain took but whose transaction did
    // not commit is taken back at the next start, and one the chain lost is granted again (chain/reconcile.ts).
    await credit.grantCents(address, FAUCET_GRANT_CENTS, tx, grantId);
    // On a chain, 100 USDC for x402 payments too, under the same journal row (chain/usd-token.ts reconciles it).
    await options.usd?.grant(address, USD_FAUCET_UNITS, grantId);
    const next = cooldownSeconds > 0 ? new Date(now.getTime() + cooldownSeconds * 1000).toISOString() : null;
    return { status: 'completed' as const, walletAddress: address, nextEligibleAt: next };
  });
}
