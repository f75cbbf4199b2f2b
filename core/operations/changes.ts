import type { AccountFact, DomainFact, Operation } from './define.ts';

/** What a write changes that a client may be showing: facts of one domain (named by `of`) and of the caller's account. */
export interface FactsChanged {
  domain: DomainFact[];
  account: AccountFact[];
  /** The domain the domain facts are of, read from the request (body, query and path parameters together). */
  of: ((request: never) => string) | undefined;
}

/** Settings a zone change may carry, as its history names them (parking is read from the zone's managed records). */
const SETTING_FLAGS = ['parking', 'forwarding', 'dnssec'] as const;

/**
 * The facts a change of what a zone answers touches: its records, what DNS answers, its history, and the account's
 * domain list (which shows each zone's parking, forwarding, DNSSEC and record count); settings when its history says so.
 */
function contentFacts(op: Pick<Operation, 'history'>): { domain: DomainFact[]; account: AccountFact[] } {
  const settings = SETTING_FLAGS.some((flag) => op.history?.[flag] === true);
  return { domain: ['records', 'answers', 'history', ...(settings ? (['settings'] as const) : [])], account: ['domains'] };
}

/**
 * Derived from one declaration: what its success changes. A zone content change (at the request) changes the zone's
 * content facts; one that takes effect when its order finishes changes the name's registration and the orders now
 * (the rest when the order finishes: orderFinishedFacts); a history-only change (a grant) changes the history and, for
 * access, who has it. `changes` adds what the zone does not say (auto-renew's setting, the faucet's balance, …).
 */
export function factsChangedBy(op: Operation): FactsChanged {
  const domain = new Set<DomainFact>(op.changes?.domain);
  const account = new Set<AccountFact>(op.changes?.account);
  const zone = op.zone;
  if (zone?.when === 'order') {
    domain.add('registration');
    account.add('orders');
  } else if (zone?.change === 'content') {
    const facts = contentFacts(op);
    for (const fact of facts.domain) domain.add(fact);
    for (const fact of facts.account) account.add(fact);
  } else if (zone?.change === 'history-only') {
    domain.add('history');
    if (op.history?.access) domain.add('access');
  }
  return { domain: [...domain], account: [...account], of: op.changes?.of ?? zone?.of };
}

/** Every fact in a list of declarations' facts, once. */
function union(list: Array<{ domain: readonly DomainFact[]; account: readonly AccountFact[] }>): { domain: DomainFact[]; account: AccountFact[] } {
  return { domain: [...new Set(list.flatMap((f) => f.domain))], account: [...new Set(list.flatMap((f) => f.account))] };
}

/**
 * What a change of a zone made elsewhere (another tab, a grantee, an API key, DNS UPDATE, the service's own renewals)
 * may have changed: every fact any content change of a zone declares. Seen as a new serial of the zone.
 */
export function zoneMovedFacts(table: readonly Operation[]): { domain: DomainFact[]; account: AccountFact[] } {
  return union(table.filter((op) => op.zone?.change === 'content' && op.zone.when !== 'order').map(factsChangedBy));
}

/**
 * What a finished order changed: its zone as the operations that order declare (parked, or given its records), and a
 * registration brings the domain into being, so every fact of it (its access list, its registration: holder,
 * expiry); the account's domains, balance (charged or refunded) and orders.
 */
export function orderFinishedFacts(table: readonly Operation[]): { domain: DomainFact[]; account: AccountFact[] } {
  const ordering = table.filter((op) => op.zone?.when === 'order');
  return union([...ordering.map(contentFacts), { domain: ['access', 'registration'], account: ['domains', 'balance', 'orders'] }]);
}
