import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { searchKey } from '@/lib/query-keys.ts';
import type { Api } from '@/lib/api/use-api.ts';

const SUGGESTIONS_PAGE_SIZE = 16;

/** GET /search/suggestions for the typed words, one page at a time. */
export function suggestionsQuery(api: Api, query: string | undefined, page: number) {
  return queryOptions({
    queryKey: searchKey('suggestions', query ?? '', page),
    queryFn: () => api.call('getSuggestions', { query: { query, page, pageSize: SUGGESTIONS_PAGE_SIZE } }),
    enabled: query !== undefined,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}
