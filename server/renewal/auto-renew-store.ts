import type { Queryable } from '../db/database.ts';
import type { DomainToken } from '../ownership/ownership.ts';
import { DAY_MS } from '#core/dates.ts';
import { AUTO_RENEW_DEFAULTS, type AutoRenew, type SetAutoRenewInput } from '#core/operations/domain-config.ts';

/**
 * A domain's auto-renew setting (table auto_renew): written by its owner (setAutoRenew), read by anyone
 * (getAutoRenew) and by the worker (./worker.ts), which records each attempt here.
 */

type Outcome = NonNullable<AutoRenew['lastAttempt']>['outcome'];

export interface AutoRenewRow {
  domain_name: string;
  enabled: boolean;
  duration_in_years: number;
  set_by: string;
  next_try_at: Date | string | null;
  last_attempt_at: Date | string | null;
  last_attempt_outcome: Outcome | null;
  last_attempt_order_id: string | null;
  last_attempt_reason: string | null;
}

/** The setting's row, locked for the caller's transaction when asked (`skip-locked`: null when another holds it). */
export async function autoRenewRow(q: Queryable, name: string, lock: false | 'skip-locked' = false): Promise<AutoRenewRow | null> {
  const [row] = await q.query<AutoRenewRow>(`SELECT * FROM auto_renew WHERE domain_name = $1${lock ? ' FOR UPDATE SKIP LOCKED' : ''}`, [name]);
  return row ?? null;
}

/** When the worker renews (or tries again): the expiry less `days`, or the daily retry after a short-of-credit try. */
export function nextAttemptOf(row: Pick<AutoRenewRow, 'next_try_at'>, expiresAt: Date, days: number): Date {
  const due = new Date(expiresAt.getTime() - days * DAY_MS);
  const retry = row.next_try_at ? new Date(row.next_try_at) : null;
  return retry && retry > due ? retry : due;
}

/**
 * The one rule every reader of the setting applies (getAutoRenew, the wallet's domain list, the worker): a setting
 * counts only when the domain's current owner wrote it, the owner being the one `Ownership` answers (the chain's
 * token holder on a chain), never the database's mirror of it. A setting written by an earlier holder counts for
 * nothing (the defaults), so a domain that moved never spends the new holder's credit, from the block that moved it.
 */
export function setByOwner(row: Pick<AutoRenewRow, 'set_by'>, token: Pick<DomainToken, 'owner'>): boolean {
  return row.set_by === token.owner.toLowerCase();
}

/** The settings that count (`setByOwner`) of several domains, in one query: name → row. */
export async function ownersAutoRenew(q: Queryable, tokens: DomainToken[]): Promise<Map<string, AutoRenewRow>> {
  const rows = await q.query<AutoRenewRow>('SELECT * FROM auto_renew WHERE domain_name = ANY($1)', [tokens.map((t) => t.name)]);
  const owners = new Map(tokens.map((t) => [t.name, t]));
  return new Map(rows.filter((r) => setByOwner(r, owners.get(r.domain_name)!)).map((r) => [r.domain_name, r]));
}

/** The domain's setting as its current owner has it (`setByOwner`), else the defaults. */
export async function readAutoRenew(q: Queryable, token: DomainToken, days: number): Promise<AutoRenew> {
  const row = await autoRenewRow(q, token.name);
  if (!row || !setByOwner(row, token)) return { normalizedDomainName: token.name, ...AUTO_RENEW_DEFAULTS };
  return {
    normalizedDomainName: token.name,
    enabled: row.enabled,
    durationInYears: row.duration_in_years,
    nextAttemptAt: row.enabled ? nextAttemptOf(row, token.expiresAt, days).toISOString() : null,
    lastAttempt:
      row.last_attempt_at && row.last_attempt_outcome
        ? { at: new Date(row.last_attempt_at).toISOString(), outcome: row.last_attempt_outcome, orderId: row.last_attempt_order_id, reason: row.last_attempt_reason }
        : null,
  };
}

/** setAutoRenew's write, by the domain's owner (checked by the caller). */
export async function writeAutoRenew(q: Queryable, token: DomainToken, input: Pick<SetAutoRenewInput, 'enabled' | 'durationInYears'>, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO auto_renew (domain_name, enabled, duration_in_years, set_by, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (domain_name) DO UPDATE SET enabled = EXCLUDED.enabled, duration_in_years = EXCLUDED.duration_in_years,
       set_by = EXCLUDED.set_by, updated_at = EXCLUDED.updated_at`,
    [token.name, input.enabled, input.durationInYears, token.owner.toLowerCase(), now.toISOString()],
  );
}

/** The worker's record of one attempt; `retryAt` is when it tries again (short of credit: a day later). */
export async function recordAttempt(
  q: Queryable,
  name: string,
  attempt: { at: Date; outcome: Outcome; orderId: string | null; reason: string | null; retryAt: Date | null },
): Promise<void> {
  await q.query(
    `UPDATE auto_renew SET last_attempt_at = $2, last_attempt_outcome = $3, last_attempt_order_id = $4, last_attempt_reason = $5, next_try_at = $6 WHERE domain_name = $1`,
    [name, attempt.at.toISOString(), attempt.outcome, attempt.orderId, attempt.reason, attempt.retryAt?.toISOString() ?? null],
  );
}
