/**
 * Where the wallet's network stands against the chains the service accepts for sign-in, and which chain to
 * ask the wallet for: the allowed chain it was on last, else the first allowed chain the dashboard knows
 * (the local chain first when the dashboard offers it).
 */
export type NetworkCheck =
  | { state: 'unknown' }
  | { state: 'fits' }
  | { state: 'wrong'; target: number | undefined };

export function checkNetwork(
  chainId: number | undefined,
  allowed: readonly number[] | undefined,
  knownChainIds: readonly number[],
  lastAllowed?: number,
): NetworkCheck {
  if (chainId === undefined || !allowed) return { state: 'unknown' };
  if (allowed.includes(chainId)) return { state: 'fits' };
  const known = knownChainIds.filter((id) => allowed.includes(id));
  const target = lastAllowed !== undefined && allowed.includes(lastAllowed) ? lastAllowed : known[0];
  return { state: 'wrong', target };
}

/**
 * The address a person should open when the service signs in for another host than this page's: a link to
 * the same path there. Undefined when the service's host is not one a browser can open as given.
 */
export function signInAddress(serviceHost: string, page: { protocol: string; pathname: string }): string | undefined {
  if (!/^[a-z0-9.-]+(?::\d{1,5})?$/i.test(serviceHost) && !/^\[[0-9a-f:]+\](?::\d{1,5})?$/i.test(serviceHost)) return undefined;
  const protocol = page.protocol === 'https:' ? 'https:' : 'http:';
  return `${protocol}//${serviceHost}${page.pathname.startsWith('/') ? page.pathname : '/'}`;
}
