/** Query keys shared by every feature, so invalidation after a write reaches every view of the data. */
export function accountKey(address: string | undefined, ...parts: unknown[]): unknown[] {
  return ['account', address?.toLowerCase() ?? 'anonymous', ...parts];
}

/** Records use [...zoneKey(z), 'records'] (parking is read from them); invalidate zoneKey(z) after any zone write. */
export function zoneKey(zoneName: string): unknown[] {
  return ['zone', zoneName];
}

/** Signing metadata, fetched once per session and service. */
export function eip712Key(apiBaseUrl: string, ...parts: unknown[]): unknown[] {
  return ['eip712', apiBaseUrl, ...parts];
}

export function siweKey(apiBaseUrl: string, ...parts: unknown[]): unknown[] {
  return ['siwe', apiBaseUrl, ...parts];
}
