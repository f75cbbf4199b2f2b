import { DAY_MS } from '#core/dates.ts';
import type { Services } from '../services.ts';
import { DomainError } from '../domain-errors.ts';
import { startPollLoop } from '../support/poll-loop.ts';
import { insertRenewOrder, isPendingConflict } from '../orders/renew-order.ts';
import { autoRenewRow, nextAttemptOf, recordAttempt, setByOwner } from './auto-renew-store.ts';

export type AttemptOutcome = 'renewed' | 'short-of-credit' | 'failed' | 'not-due' | 'taken';

/**
 * One domain's automatic renewal, in one transaction: the setting's row locked (another instance holding it skips
 * this domain), the domain re-read, then a renewal order paid from the owner's credit with `metadata.autoRenew`, and
 * the claim of (domain, expiry) beside it. The claim's key means the renewal of one expiry is ordered once, whatever
 * the instances and restarts; the order worker charges it and moves the expiry, once (server/orders/processing.ts).
 * Short of credit, the attempt is recorded and tried again a day later.
 */
async function attemptAutoRenew(services: Services, name: string): Promise<AttemptOutcome> {
  const now = services.now();
  const days = services.config.AUTO_RENEW_DAYS;
  try {
    const outcome = await services.db.transaction(async (tx): Promise<AttemptOutcome> => {
      const row = await autoRenewRow(tx, name, 'skip-locked');
      if (!row) return 'taken';
      const token = await services.ownership.ownerOf(name, tx);
      // Off, written by an earlier holder (never the new holder's credit), or not due yet: nothing to do.
      if (!token || !row.enabled || !setByOwner(row, token)) return 'not-due';
      if (nextAttemptOf(row, token.expiresAt, days) > now) return 'not-due';
      const [claimed] = await tx.query('SELECT order_id FROM auto_renew_claims WHERE domain_name = $1 AND expires_at = $2', [name, token.expiresAt.toISOString()]);
      if (claimed) return 'taken';
      let order;
      try {
        order = await insertRenewOrder(services, tx, { wallet: token.owner, name, years: row.duration_in_years, metadata: { autoRenew: true } });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const short = error.kind === 'payment-required';
        await recordAttempt(tx, name, { at: now, outcome: short ? 'short-of-credit' : 'failed', orderId: null, reason: error.message, retryAt: new Date(now.getTime() + DAY_MS) });
        return short ? 'short-of-credit' : 'failed';
      }
      await tx.query('INSERT INTO auto_renew_claims (domain_name, expires_at, order_id, claimed_at) VALUES ($1, $2, $3, $4)', [name, token.expiresAt.toISOString(), order.id, now.toISOString()]);
      await recordAttempt(tx, name, { at: now, outcome: 'renewed', orderId: order.id, reason: null, retryAt: null });
      return 'renewed';
    });
    if (outcome === 'renewed') services.notifyOrders();
    return outcome;
  } catch (error) {
    // Another order of the name is pending (a renewal someone paid, say), or another instance claimed it first.
    if (isPendingConflict(error)) return 'taken';
    throw error;
  }
}

/** Every enabled domain whose renewal point has passed (the database's mirror; each is re-read when attempted). */
async function dueDomains(services: Services): Promise<string[]> {
  const now = services.now();
  const rows = await services.db.query<{ domain_name: string }>(
    `SELECT a.domain_name FROM auto_renew a JOIN domains d ON d.name = a.domain_name
     WHERE a.enabled AND d.expires_at <= $1 AND (a.next_try_at IS NULL OR a.next_try_at <= $2)
     ORDER BY d.expires_at LIMIT 100`,
    [new Date(now.getTime() + services.config.AUTO_RENEW_DAYS * DAY_MS).toISOString(), now.toISOString()],
  );
  return rows.map((r) => r.domain_name);
}

/** One pass over the due domains; answers what each attempt did. */
export async function autoRenewRound(services: Services): Promise<Record<string, AttemptOutcome>> {
  const outcomes: Record<string, AttemptOutcome> = {};
  for (const name of await dueDomains(services)) {
    try {
      outcomes[name] = await attemptAutoRenew(services, name);
    } catch (error) {
      console.error(`Auto-renew: ${name}:`, error);
      outcomes[name] = 'failed';
    }
  }
  return outcomes;
}

export interface AutoRenewWorker {
  wake(): void;
  stop(): Promise<void>;
}

/** Looks for due renewals every `pollMs` (and when woken: the test clock moved). All its state is in the database. */
export function startAutoRenewWorker(services: Services, options: { pollMs?: number } = {}): AutoRenewWorker {
  const loop = startPollLoop(() => autoRenewRound(services).then(() => undefined), {
    pollMs: options.pollMs ?? 60_000,
    onError: (error) => console.error('Auto-renew worker:', error),
  });
  return { wake: () => void loop.wake(), stop: loop.stop };
}
