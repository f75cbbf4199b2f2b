import type { OperationId } from '#core/operations/index.ts';
import { ZONE_SETTINGS, type ChainChange, type DoorChange, type HistoryActor, type ServiceChange, type SignedWrite, type ZoneChangeFacts } from '#core/wire/history.ts';
import type { Queryable } from '../db/database.ts';
import type { Principal } from '../services.ts';

/** Who makes a change and under which operation: what every zone write carries down to `recordChange`. */
export interface ChangeAuthor {
  operation: OperationId | ServiceChange | ChainChange | DoorChange;
  actor: HistoryActor;
  signed?: SignedWrite;
}

/** The author of a request's change: the wallet that signed, the account it acted for, and how it proved it. */
export function authorOf(operation: OperationId | DoorChange, principal: Principal): ChangeAuthor {
  const acting = principal.signer ? { wallet: principal.signer, account: principal.wallet } : { wallet: principal.wallet, account: null };
  const via = principal.via === 'api-key' ? 'api-key' : 'eip712';
  const key = principal.apiKeyId ? { apiKeyId: principal.apiKeyId, apiKeyScope: principal.apiKeyScope ?? null } : {};
  const actor: HistoryActor = { ...acting, via, ...key, ...(principal.client ? { client: principal.client } : {}) };
  return principal.signed ? { operation, actor, signed: principal.signed } : { operation, actor };
}

/** The author of the records an order applies when it finishes: the wallet that ordered. */
export const orderAuthor = (operation: OperationId, wallet: string): ChangeAuthor => ({ operation, actor: { wallet, account: null, via: 'order' } });

/** The author of a change the service makes itself (a DNSSEC renewal), with why. */
export const serviceAuthor = (operation: ServiceChange, reason: string): ChangeAuthor => ({ operation, actor: { wallet: '', account: null, via: 'service', reason } });

/** The author of a change read from the chain (a transfer of the domain's token): the account that sent the transaction. */
export const chainAuthor = (operation: ChainChange, sender: string): ChangeAuthor => ({ operation, actor: { wallet: sender.toLowerCase(), account: null, via: 'chain' } });

/**
 * Appends the zone's history entry for a change, inside the change's own transaction and after its serial moved
 * (the entry names the serial the change produced): the entry commits or rolls back with the change. Called by the
 * zone-change pipeline (server/zones/pipeline.ts) alone, once per change that did something.
 */
export async function recordChange(q: Queryable, zoneName: string, author: ChangeAuthor, facts: ZoneChangeFacts, now: Date): Promise<void> {
  const settings = Object.fromEntries(ZONE_SETTINGS.filter((key) => facts[key] !== undefined).map((key) => [key, facts[key]]));
  const entry = JSON.stringify({ actor: author.actor, changes: facts.changes, ...settings, ...(author.signed ? { signed: author.signed } : {}) });
  await q.query('INSERT INTO zone_history (zone_name, serial, at, operation, entry) SELECT name, zone_serial, $2, $3, $4 FROM domains WHERE name = $1', [
    zoneName,
    now.toISOString(),
    author.operation,
    entry,
  ]);
}
