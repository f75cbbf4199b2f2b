import type { Database } from './db/database.ts';
import type { Config } from './config.ts';
import type { Ownership } from './ownership/ownership.ts';
import type { CreditStore } from './balance/credit-store.ts';
import type { HistoryClient, ServiceHeaders } from '#core/headers.ts';
import type { X402Rail } from './x402/rail.ts';
import type { ContractSignatureVerifier } from './auth/contract-signatures.ts';
import type { ZoneCache } from './dns/zone-read.ts';
import type { SignedWrite } from '#core/wire/history.ts';
import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import type { QueryCounter } from './dns-server/query-counts.ts';

/*
 * What the service's code is given, whatever calls it: the HTTP routes, the order worker, the DNS server, a script.
 * Nothing here is HTTP; the request-level types (RequestContext, Handler) are server/http/context.ts's.
 */

/** The wallet a request acts as, and how it proved it. Addresses are lowercase. */
export interface Principal {
  wallet: string;
  via: 'api-key' | 'eip712' | 'siwe';
  /** The EOA that signed, when it differs from `wallet` (a delegated or contract account). */
  signer?: string;
  /** The API key used, by id. */
  apiKeyId?: string;
  /** The API key's limits (null: an unlimited key); checked by server/access/authorise.ts. */
  apiKeyScope?: ApiKeyScope | null;
  /** The client that named itself (the MCP server, or the dashboard signing what an agent prepared), or the standard door a key came through: attribution only. */
  client?: HistoryClient;
  /** An EIP-712 request as verified (the body as received, the domain and types, the signature): kept in the zone's history. */
  signed?: SignedWrite;
}

/** What every handler is given, built once at start-up by `server/service.ts`. */
export interface Services {
  config: Config;
  db: Database;
  /** Who holds a domain: the database registry, or the ERC-721 (with the database as its mirror) on a chain. */
  ownership: Ownership;
  /** The wallets' credit: the database, or the Credit ERC-20 when the service runs on a chain. */
  credit: CreditStore;
  /** Checks signatures of contract accounts; only on a chain (CHAIN=anvil). */
  contractSignatures: ContractSignatureVerifier | null;
  /** x402 payments in the USD token; only on a chain (CHAIN=anvil). */
  x402: X402Rail | null;
  headers: ServiceHeaders;
  now: () => Date;
  /** Wakes the order worker after an order is created, so it need not wait for its next poll. */
  notifyOrders: () => void;
  /** Zones' wire JSON as last read, for GET /dns/records. */
  zoneCache: ZoneCache;
  /** When `server/auth/eip712.ts` last deleted lapsed envelope nonces (it does so at most once a minute). */
  envelopeNonces: { prunedAtMs: number };
  /** The URL forwarder's origin (FORWARD_PORT set), which tryForwarding asks; null when none runs. */
  forwarderOrigin: string | null;
  /** The port this instance's DNS server answers on (DNS_PORT set, once it listens), for getServiceDoors; null otherwise. */
  dnsPort: () => number | null;
  /** Query analytics: what this instance's name server and DoH counted, not yet added to the database. */
  queryCounter: QueryCounter;
}
