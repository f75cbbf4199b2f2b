import type { QueryClient } from '@tanstack/react-query';
import { factsOfOrderFinished } from '#core/operations/index.ts';
import { refreshFacts } from '@/lib/freshness/facts.ts';

/**
 * A finished order changed what the operations that order declare (derived: factsOfOrderFinished): each name's zone
 * and registration, and the account's domains, balance and orders. The finished order itself is final and never
 * asked for again.
 */
export function refreshAfterOrder(queryClient: QueryClient, domains: string[]): Promise<unknown> {
  const facts = factsOfOrderFinished();
  if (domains.length === 0) return refreshFacts(queryClient, facts, undefined);
  return Promise.all(domains.map((domain) => refreshFacts(queryClient, facts, domain)));
}
