import type { Query, QueryClient, QueryFilters } from '@tanstack/react-query';
import type { AccountFact, DomainFact } from '#core/operations/index.ts';
import { allAccountsKey, domainFactKey } from '../query-keys.ts';

export interface Facts {
  domain: readonly DomainFact[];
  account: readonly AccountFact[];
}

/**
 * An account's fact, for every account the cache holds: a write may change another wallet's data too (a grant, a
 * domain sent), and an account the cache holds is one this browser may show.
 */
function accountFactFilter(fact: AccountFact): QueryFilters {
  if (fact === 'session') return { queryKey: allAccountsKey() };
  return { predicate: (query: Query) => query.queryKey[0] === allAccountsKey()[0] && query.queryKey[2] === fact };
}

/** The filters that name these facts: each fact's one key (src/lib/query-keys.ts), of this domain and of any account. */
function factFilters(facts: Facts, domain: string | undefined): QueryFilters[] {
  return [...(domain ? facts.domain.map((fact) => ({ queryKey: domainFactKey(domain, fact) })) : []), ...facts.account.map(accountFactFilter)];
}

/**
 * A view's first read still on its way may have been answered before the write: TanStack joins an invalidation to a
 * first read in flight rather than sending another, so the view would show what the write changed. It is called back
 * (the view goes back to loading) and the invalidation below sends it again.
 */
async function cancelFirstReads(queryClient: QueryClient, filter: QueryFilters): Promise<void> {
  const first = (query: Query) => query.state.data === undefined && query.state.fetchStatus === 'fetching';
  const queries = queryClient.getQueryCache().findAll(filter).filter(first);
  await Promise.all(queries.map((query) => query.cancel({ revert: true })));
}

/**
 * The one refresh: every view on screen of these facts reads them again (and this resolves when they have), and
 * what no view shows is dropped, so a view opened later starts from the service rather than from what is no longer
 * true.
 */
export async function refreshFacts(queryClient: QueryClient, facts: Facts, domain: string | undefined): Promise<void> {
  const filters = factFilters(facts, domain);
  for (const filter of filters) queryClient.removeQueries({ ...filter, type: 'inactive' });
  await Promise.all(filters.map((filter) => cancelFirstReads(queryClient, filter)));
  await Promise.all(filters.map((filter) => queryClient.invalidateQueries(filter)));
}
