import type { DomainSort, ExpiresWithin } from './domain-list.ts';

/**
 * The Domains list's view kept in the address (`?expires=30&sort=expiry&dir=asc`), so a reload, a bookmark or a
 * link shows the same domains in the same order. Anything unknown reads as the default; defaults are left out.
 */
export interface ListParams {
  within: ExpiresWithin;
  sort: DomainSort;
  direction: 'asc' | 'desc';
}

const DEFAULT_LIST_PARAMS: ListParams = { within: 'any', sort: 'name', direction: 'asc' };
const SORTS: readonly DomainSort[] = ['name', 'expiry', 'registered', 'records'];
const WINDOWS: readonly ExpiresWithin[] = [7, 30, 90];

export function readListParams(search: URLSearchParams): ListParams {
  const expires = Number(search.get('expires'));
  const sort = search.get('sort') as DomainSort | null;
  return {
    within: WINDOWS.find((w) => w === expires) ?? 'any',
    sort: sort && SORTS.includes(sort) ? sort : DEFAULT_LIST_PARAMS.sort,
    direction: search.get('dir') === 'desc' ? 'desc' : 'asc',
  };
}

/** The address's parameters for a view: the others it holds are kept. */
export function writeListParams(search: URLSearchParams, params: ListParams): URLSearchParams {
  const next = new URLSearchParams(search);
  const set = (key: string, value: string | null) => (value === null ? next.delete(key) : next.set(key, value));
  set('expires', params.within === 'any' ? null : String(params.within));
  set('sort', params.sort === DEFAULT_LIST_PARAMS.sort ? null : params.sort);
  set('dir', params.direction === DEFAULT_LIST_PARAMS.direction ? null : params.direction);
  return next;
}
