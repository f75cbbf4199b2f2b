import type { AccountFact, DomainFact } from '#core/operations/index.ts';

/**
 * The one home of every query key. A fact a write may change (core/operations/changes.ts) has one key here, and every
 * read of it sits under that key, so the refresh rule (src/lib/freshness/refresh.ts) reaches every view of it by
 * naming the fact alone.
 */
export function accountKey(address: string | undefined, ...parts: unknown[]): unknown[] {
  return [...allAccountsKey(), address?.toLowerCase() ?? 'anonymous', ...parts];
}

/** Every account's data at once: the `session` fact, changed when a sign-in changes whose data the service answers with. */
export function allAccountsKey(): unknown[] {
  return ['account'];
}

/** One fact of an account: [...accountKey(address), fact, …]. */
export function accountFactKey(address: string | undefined, fact: Exclude<AccountFact, 'session'>, ...parts: unknown[]): unknown[] {
  return accountKey(address, fact, ...parts);
}

/** Everything the dashboard reads of one domain (registered or not); its facts and its analytics sit below. */
export function zoneKey(zoneName: string): unknown[] {
  return ['zone', zoneName];
}

/** One fact of a domain: [...zoneKey(name), fact, …]. */
export function domainFactKey(name: string, fact: DomainFact, ...parts: unknown[]): unknown[] {
  return [...zoneKey(name), fact, ...parts];
}

/** A zone's records (GET /dns/records), shared by the records table, the overview, parking, mail and ENS. */
export function recordsKey(zoneName: string): unknown[] {
  return domainFactKey(zoneName, 'records');
}

/** One of a domain's settings (forwarding, DNSSEC, auto-renew). */
export function settingKey(name: string, setting: 'forwarding' | 'dnssec' | 'auto-renew'): unknown[] {
  return domainFactKey(name, 'settings', setting);
}

/** A zone's DNSSEC state (GET /dns/dnssec). */
export function dnssecKey(zoneName: string): unknown[] {
  return settingKey(zoneName, 'dnssec');
}

/** What DNS answers for the domain now, asked in some way (the apex's addresses, the mail check). */
export function answersKey(name: string, ...parts: unknown[]): unknown[] {
  return domainFactKey(name, 'answers', ...parts);
}

/** The zone's serial as DNS answers it now: what the zone watcher polls (not a fact: it says when the facts moved). */
export function zoneVersionKey(zoneName: string): unknown[] {
  return [...zoneKey(zoneName), 'version'];
}

/** Public search answers; they do not depend on who asks. */
export function searchKey(...parts: unknown[]): unknown[] {
  return ['search', ...parts];
}

/** One name's availability: part of its registration, re-read after an order of that name. */
export function availabilityKey(name: string): unknown[] {
  return domainFactKey(name, 'registration', 'availability');
}

/** What renewing a name would be (its holder, expiry and price; public): part of its registration. */
export function renewalQuoteKey(name: string): unknown[] {
  return domainFactKey(name, 'registration', 'renewal-quote');
}

/** x402 payment terms and purchases of the checkout. */
export function x402Key(...parts: unknown[]): unknown[] {
  return ['x402', ...parts];
}

/** Signing metadata, fetched once per session and service. */
export function eip712Key(apiBaseUrl: string, ...parts: unknown[]): unknown[] {
  return ['eip712', apiBaseUrl, ...parts];
}

export function siweKey(apiBaseUrl: string, ...parts: unknown[]): unknown[] {
  return ['siwe', apiBaseUrl, ...parts];
}
