import { DAY_MS } from './dates.ts';

/**
 * A domain's life after its expiry, from the expiry and now alone: the service (UserDomain.status, the expiry
 * worker, the refusal of writes) and the dashboard (the banner, the list's badge) read it from here.
 *
 *   active ─ expiresAt ─▶ grace ─ graceEndsAt ─▶ redemption ─ redemptionEndsAt ─▶ released
 *
 * grace: DNS answers as before and the owner still edits; a renewal costs the usual price. redemption: the zone
 * answers only an "expired" holding page, no record write is accepted, and a renewal adds the restore fee.
 * released: the token is burned and the name is available again.
 */
export type ExpiryStatus = 'active' | 'grace' | 'redemption' | 'released';

export interface ExpiryPolicy {
  graceDays: number;
  redemptionDays: number;
}

export interface ExpiryState {
  status: ExpiryStatus;
  expiresAt: Date;
  graceEndsAt: Date;
  redemptionEndsAt: Date;
}

/** The state at `now`: each boundary belongs to the state it starts (at expiresAt exactly the domain is in grace). */
export function expiryState(expiresAt: Date, now: Date, policy: ExpiryPolicy): ExpiryState {
  const graceEndsAt = new Date(expiresAt.getTime() + policy.graceDays * DAY_MS);
  const redemptionEndsAt = new Date(graceEndsAt.getTime() + policy.redemptionDays * DAY_MS);
  const t = now.getTime();
  const status: ExpiryStatus = t < expiresAt.getTime() ? 'active' : t < graceEndsAt.getTime() ? 'grace' : t < redemptionEndsAt.getTime() ? 'redemption' : 'released';
  return { status, expiresAt, graceEndsAt, redemptionEndsAt };
}

/** The one-off fee a renewal adds in redemption, in US dollars (nothing otherwise). */
export function restoreFeeFor(status: ExpiryStatus, restoreFee: number): { amount: number; currency: 'USD' } | null {
  return status === 'redemption' ? { amount: restoreFee, currency: 'USD' } : null;
}

/** The words for a state: what it is and what still works, for the banner and the list's badge. */
export const EXPIRY_WORDS: Record<Exclude<ExpiryStatus, 'released'>, { badge: string; works: string }> = {
  active: { badge: 'Active', works: 'Everything works.' },
  grace: { badge: 'Expired (grace)', works: 'DNS still answers and you can still edit the records; renew before the grace period ends.' },
  redemption: {
    badge: 'Expired (redemption)',
    works: 'Only an "expired" holding page answers and records cannot be changed; renewing (with the restore fee) brings the records back.',
  },
};
