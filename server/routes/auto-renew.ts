import { AUTO_RENEW_DEFAULTS, type AutoRenew } from '../../src/core/wire/auto-renew.ts';
import type { Queryable } from '../db/database.ts';
import { requireOwnedDomain, requireRegisteredDomain } from '../dns/domain-access.ts';
import type { Handlers } from '../http/context.ts';
import type { DomainToken } from '../ownership/ownership.ts';

const DAY_MS = 86_400_000;

/**
 * Auto-renew (ours): a plain owner-checked write of one row, not a change of the zone. The switch changes nothing
 * the zone answers (no serial, no history entry; the contract lists no auto-renew entry): what an automatic renewal
 * does will be the zone's entries. Renewal orders do not exist yet, so nothing renews: `lastAttempt` stays null.
 */
export const autoRenewHandlers: Handlers = {
  async getAutoRenew({ input, services }) {
    const token = await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    return readAutoRenew(services.db, token, services.config.AUTO_RENEW_DAYS);
  },

  /** Owner only (a grantee never sets it, and neither does anyone paying a renewal as a gift). */
  setAutoRenew: ({ input, services, principal }) =>
    services.db.transaction(async (tx) => {
      const token = await requireOwnedDomain(services, tx, input.normalizedDomainName, principal);
      await tx.query(
        `INSERT INTO auto_renew (domain_name, enabled, duration_in_years, set_by, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (domain_name) DO UPDATE SET enabled = EXCLUDED.enabled, duration_in_years = EXCLUDED.duration_in_years,
           set_by = EXCLUDED.set_by, updated_at = EXCLUDED.updated_at`,
        [token.name, input.enabled, input.durationInYears, token.owner.toLowerCase(), services.now().toISOString()],
      );
      return readAutoRenew(tx, token, services.config.AUTO_RENEW_DAYS);
    }),
};

interface AutoRenewRow {
  enabled: boolean;
  duration_in_years: number;
  set_by: string;
  last_attempt_at: Date | string | null;
  last_attempt_outcome: NonNullable<AutoRenew['lastAttempt']>['outcome'] | null;
  last_attempt_order_id: string | null;
  last_attempt_reason: string | null;
}

/**
 * The domain's setting as its current owner has it: a setting written by an earlier holder counts for nothing (the
 * defaults), so a domain that moved never spends the new holder's credit. `nextAttemptAt` is the expiry less
 * `days` while enabled (in the past when the domain expires sooner than that: the attempt is due).
 */
async function readAutoRenew(q: Queryable, token: DomainToken, days: number): Promise<AutoRenew> {
  const [row] = await q.query<AutoRenewRow>(
    'SELECT enabled, duration_in_years, set_by, last_attempt_at, last_attempt_outcome, last_attempt_order_id, last_attempt_reason FROM auto_renew WHERE domain_name = $1',
    [token.name],
  );
  if (!row || row.set_by !== token.owner.toLowerCase()) return { normalizedDomainName: token.name, ...AUTO_RENEW_DEFAULTS };
  return {
    normalizedDomainName: token.name,
    enabled: row.enabled,
    durationInYears: row.duration_in_years,
    nextAttemptAt: row.enabled ? new Date(token.expiresAt.getTime() - days * DAY_MS).toISOString() : null,
    lastAttempt:
      row.last_attempt_at && row.last_attempt_outcome
        ? { at: new Date(row.last_attempt_at).toISOString(), outcome: row.last_attempt_outcome, orderId: row.last_attempt_order_id, reason: row.last_attempt_reason }
        : null,
  };
}
