import { EXPIRY_WORDS } from '#core/expiry.ts';
import type { UserDomain } from '#core/wire/user.ts';

const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);

export interface ExpiryBannerModel {
  tone: 'warning' | 'danger';
  /** The state and its dates, in one line. */
  title: string;
  /** What still works, and what ends when. */
  works: string;
  /** The one action that fixes it. */
  action: string;
}

/**
 * What the domain page says about the domain's life after expiry, or null while it is active (or the service does not
 * say: production gives no status).
 */
export function expiryBanner(domain: Pick<UserDomain, 'normalizedDomainName' | 'expirationDate' | 'status' | 'graceEndsAt' | 'redemptionEndsAt'>): ExpiryBannerModel | null {
  const { status, graceEndsAt, redemptionEndsAt } = domain;
  if (!status || status === 'active' || !graceEndsAt || !redemptionEndsAt) return null;
  if (status === 'grace') {
    return {
      tone: 'warning',
      title: `Expired on ${day(domain.expirationDate)}: in its grace period until ${day(graceEndsAt)}`,
      works: `${EXPIRY_WORDS.grace.works} After ${day(graceEndsAt)} only a holding page answers, and from ${day(redemptionEndsAt)} anyone may register the name.`,
      action: 'Renew',
    };
  }
  return {
    tone: 'danger',
    title: `Expired on ${day(domain.expirationDate)}: in redemption until ${day(redemptionEndsAt)}`,
    works: `${EXPIRY_WORDS.redemption.works} On ${day(redemptionEndsAt)} the name is released: its records and history are deleted and anyone may register it.`,
    action: 'Renew',
  };
}
