import { z } from 'zod';
import { isoDate, zoneName } from './common.ts';

/** Auto-renew renews for 1 to 10 years at a time (the registration's own range). */
export const AUTO_RENEW_YEARS = { min: 1, max: 10 } as const;

/** A domain never switched answers these (the contract's defaults). */
export const AUTO_RENEW_DEFAULTS = { enabled: false, durationInYears: 1, nextAttemptAt: null, lastAttempt: null } as const;

const durationInYears = z
  .number({ error: `durationInYears must be a whole number of years, ${AUTO_RENEW_YEARS.min} to ${AUTO_RENEW_YEARS.max}` })
  .int(`durationInYears must be a whole number of years, ${AUTO_RENEW_YEARS.min} to ${AUTO_RENEW_YEARS.max}`)
  .min(AUTO_RENEW_YEARS.min, `durationInYears is at least ${AUTO_RENEW_YEARS.min} year`)
  .max(AUTO_RENEW_YEARS.max, `durationInYears is at most ${AUTO_RENEW_YEARS.max} years`);

/** What the last automatic renewal did; null until one has been tried. */
const lastAttempt = z.object({
  at: isoDate,
  outcome: z.enum(['renewed', 'short-of-credit', 'failed']),
  orderId: z.string().nullable(),
  reason: z.string().nullable(),
});

/** A domain's auto-renew setting (ours): `nextAttemptAt` is the expiry less AUTO_RENEW_DAYS while enabled, else null. */
export const autoRenew = z.object({
  normalizedDomainName: z.string(),
  enabled: z.boolean(),
  durationInYears: z.number().int(),
  nextAttemptAt: isoDate.nullable(),
  lastAttempt: lastAttempt.nullable(),
});
export type AutoRenew = z.infer<typeof autoRenew>;

export const autoRenewQuery = z.object({ normalizedDomainName: zoneName });
export const setAutoRenewInput = z.object({ normalizedDomainName: zoneName, enabled: z.boolean(), durationInYears });
export type SetAutoRenewInput = z.infer<typeof setAutoRenewInput>;
