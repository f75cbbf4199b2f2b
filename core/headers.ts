/** Header names are built from one prefix ("namefi" for the production service), never scattered literals. */
export function serviceHeaders(prefix: string) {
  return {
    apiKey: 'x-api-key',
    signer: `x-${prefix}-signer`,
    signature: `x-${prefix}-signature`,
    eip712Type: `x-${prefix}-eip712-type`,
    siweToken: `x-${prefix}-siwe-token`,
    eip7702Account: `x-${prefix}-eip7702-account`,
    erc1271Account: `x-${prefix}-erc1271-account`,
    eip1271Account: `x-${prefix}-eip1271-account`,
    chainId: `x-${prefix}-chain-id`,
  } as const;
}
export type ServiceHeaders = ReturnType<typeof serviceHeaders>;
export const DEFAULT_HEADER_PREFIX = 'namefi';

/**
 * The header a client names itself with for the history (ours): the MCP server sends `mcp`, and the dashboard sends
 * it when it signs a change an agent prepared. It attributes, it authorises nothing.
 */
export const clientHeader = (prefix: string) => `x-${prefix}-client`;
export const CLIENT_NAMES = ['mcp'] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];
/** The clients a history entry names: those above, and the standard doors a key's change came through (RFC 2136 UPDATE, DynDNS2). */
export const HISTORY_CLIENTS = [...CLIENT_NAMES, 'rfc2136', 'dyndns2'] as const;
export type HistoryClient = (typeof HISTORY_CLIENTS)[number];
