/** Query keys shared by every feature, so invalidation after a write reaches every view of the data. */
export function accountKey(address: string | undefined, ...parts: unknown[]): unknown[] {
  return [...allAccountsKey(), address?.toLowerCase() ?? 'anonymous', ...parts];
}

/** Every account's data at once: invalidated when a sign-in changes whose data the service answers with. */
export function allAccountsKey(): unknown[] {
  return ['account'];
}

/** Records use [...zoneKey(z), 'records'] (parking is read from them); invalidate zoneKey(z) after any zone write. */
export function zoneKey(zoneName: string): unknown[] {
  return ['zone', zoneName];
}

/** A zone's records (GET /dns/records), shared by the records table and the parking panel. */
export function recordsKey(zoneName: string): unknown[] {
  return [...zoneKey(zoneName), 'records'];
}

/** A zone's DNSSEC state (GET /dns/dnssec); below zoneKey, so every zone write re-reads it. */
export function dnssecKey(zoneName: string): unknown[] {
  return [...zoneKey(zoneName), 'dnssec'];
}

/** Public search answers; they do not depend on who asks. */
export function searchKey(...parts: unknown[]): unknown[] {
  return ['search', ...parts];
}

/** One name's availability: re-read (lazily) after a registration of that name. */
export function availabilityKey(name: string): unknown[] {
  return searchKey('availability', name);
}

/** What renewing a name would be (its holder, expiry and price; public): re-read after an order of that name. */
export function renewalQuoteKey(name: string): unknown[] {
  return ['renewal-quote', name];
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
