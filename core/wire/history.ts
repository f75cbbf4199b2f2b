import { z } from 'zod';
import { HISTORY_CLIENTS } from '../headers.ts';
import { isoDate, zoneName } from './common.ts';
import { dnsRecord } from './dns.ts';
import { signingDomain, typeRegistry } from './eip712.ts';
import { forwarding } from './forwarding.ts';
import { safeText } from './text.ts';
import { GRANT_ROLES } from '../access/scope.ts';
import type { DoorChange } from '../access/role.ts';
import { apiKeyScope } from './api-key-scope.ts';
import { ROLLOVER_PHASES } from '../dns/rollover.ts';

/** An EIP-712 write as verified: enough for anyone to recompute the hash and check the signature without the service. */
export const signedWrite = z.object({
  domain: signingDomain,
  primaryType: z.string(),
  types: typeRegistry,
  /** The request body exactly as received. */
  envelope: z.record(z.string(), z.unknown()),
  signature: z.string(),
  signer: z.string(),
});
export type SignedWrite = z.infer<typeof signedWrite>;

/**
 * Who made a change and how they proved it (contract: History). `account` is the delegated account acted for. The
 * service's own changes (a DNSSEC renewal) have no wallet (`""`) and say why in `reason`.
 */
const historyActor = z.object({
  wallet: z.string(),
  account: z.string().nullable(),
  via: z.enum(['eip712', 'api-key', 'order', 'service', 'chain']),
  apiKeyId: z.string().optional(),
  /** The client that made or prepared the change, as it named itself (`mcp`: through the MCP server), or the door it came through (`rfc2136`, `dyndns2`). */
  client: z.enum(HISTORY_CLIENTS).optional(),
  /** Why the service made a change of its own accord (`via: "service"`). */
  reason: z.string().optional(),
  /** A grantee's change (contract: Access): the grant it was made under, with the owner's signature over it. */
  grant: z.object({ id: z.string(), role: z.enum(GRANT_ROLES), signed: signedWrite }).optional(),
  /** A scoped API key's change: the key's limits at the time (null: an unlimited key). */
  apiKeyScope: apiKeyScope.nullable().optional(),
});
export type HistoryActor = z.infer<typeof historyActor>;

/** Changes the service makes of its own accord, by the `operation` their history entries carry, in words. */
export const SERVICE_CHANGE_WORDS = {
  renewDnssecSignatures: 'Renewed the DNSSEC signatures',
  advanceDnssecRollover: 'Took the next step of the DNSSEC algorithm rollover',
  expireDomain: 'Expired: the domain entered redemption; only the "expired" holding page answers',
  restoreDomain: 'Restored: the domain was renewed; its records answer again',
  flattenAlias: "Followed an ALIAS target: the addresses it answers changed",
} as const;
export type ServiceChange = keyof typeof SERVICE_CHANGE_WORDS;

/**
 * Changes made through the standard doors (contract: The standard doors) with a scoped key: a DNS UPDATE message
 * (RFC 2136, TSIG) or a DynDNS2 request, one entry each, `actor.client` naming the door.
 */
export const DOOR_CHANGE_WORDS: Record<DoorChange, string> = { dnsUpdate: 'Changed by DNS UPDATE (RFC 2136)', dynDnsUpdate: 'Set an address by DynDNS2' };
export type { DoorChange };

/**
 * Changes the service reads from the chain rather than makes (`actor.via: "chain"`): the domain's token moved to
 * another wallet, by any tool. `actor.wallet` is the account that sent the transaction.
 */
export const CHAIN_CHANGE_WORDS = { transfer: 'Sent to another wallet' } as const;
export type ChainChange = keyof typeof CHAIN_CHANGE_WORDS;

const recordChange = z.object({
  op: z.enum(['create', 'update', 'delete']),
  before: dnsRecord.nullable(),
  after: dnsRecord.nullable(),
});
export type RecordChange = z.infer<typeof recordChange>;

const flip = z.object({ before: z.boolean(), after: z.boolean() });

/** How a zone is signed (DNSSEC): its algorithm and its proof of absence. */
const signingChoice = z.object({ algorithm: z.number().int(), denial: z.enum(['nsec', 'nsec3']), nsec3OptOut: z.boolean() });
export type SigningChoiceFacts = z.infer<typeof signingChoice>;

const rolloverKeyFacts = z.object({ algorithm: z.number().int(), keyTag: z.number().int() });
/** A step of an algorithm rollover (RFC 6781 §4.1.4): the keys, and the phase before and after (`done`: the old key gone). */
const rolloverStep = z.object({
  from: rolloverKeyFacts,
  to: rolloverKeyFacts,
  phase: z.object({ before: z.enum(ROLLOVER_PHASES).nullable(), after: z.enum([...ROLLOVER_PHASES, 'done']) }),
  /** The owner's word that the parent holds this DS (the new key's tag), when that is the step. */
  dsAtParent: z.number().int().optional(),
});

/**
 * What a change did to its zone, the one shape of it: the records it touched and each setting it changed, before and
 * after. The pipeline's commands answer it, the history entry carries it, the IXFR journal and the dashboard read it.
 * A new kind of setting is a new optional field here.
 */
const zoneChangeFacts = z.object({
  changes: z.array(recordChange),
  parking: flip.optional(),
  dnssec: flip.optional(),
  /** How the zone is signed, when a change signed it or changed how (before: null when it was not signed). */
  dnssecSigning: z.object({ before: signingChoice.nullable(), after: signingChoice }).optional(),
  /** A step of an algorithm rollover: started by a change of algorithm, moved on by the service and by the owner's word. */
  dnssecRollover: rolloverStep.optional(),
  /** The "expired" holding page (redemption) taken on or off by the expiry worker. */
  expired: flip.optional(),
  forwarding: z.object({ before: forwarding, after: forwarding }).optional(),
  /** Access granted to another wallet or revoked (contract: Access): history-only, the serial stays. */
  access: z
    .object({
      action: z.enum(['grant', 'revoke']),
      grantId: z.string(),
      grantee: z.string(),
      role: z.enum(GRANT_ROLES),
      names: z.array(z.string()),
      types: z.array(z.string()),
      expiresAt: isoDate,
    })
    .optional(),
  /** The domain's token moved on the chain (ours): from and to the holders (lowercase), in which transaction and block. */
  transfer: z.object({ from: z.string(), to: z.string(), txHash: z.string(), blockNumber: z.number().int() }).optional(),
});
export type ZoneChangeFacts = z.infer<typeof zoneChangeFacts>;
/** The settings a change may carry, in the order an entry lists them. */
export const ZONE_SETTINGS = Object.keys(zoneChangeFacts.shape).filter((key) => key !== 'changes') as Array<Exclude<keyof ZoneChangeFacts, 'changes'>>;

export const historyEntry = z.object({
  id: z.string(),
  zoneName: z.string(),
  serial: z.number(),
  at: isoDate,
  operation: z.string(),
  actor: historyActor,
  ...zoneChangeFacts.shape,
  signed: signedWrite.optional(),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

const MAX_HISTORY_PAGE = 200;
export const historyQuery = z.object({
  zoneName,
  before: safeText().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_HISTORY_PAGE).default(50),
});
export type HistoryQuery = z.infer<typeof historyQuery>;

export const historyPage = z.object({ entries: z.array(historyEntry), next: z.string().nullable() });
export type HistoryPage = z.infer<typeof historyPage>;

export const historyExportQuery = z.object({ zoneName });
