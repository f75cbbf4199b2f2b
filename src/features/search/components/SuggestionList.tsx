import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { Button, Notice, Spinner } from '@/ui/index.ts';
import { bulkAvailabilityQuery } from '../api/bulk-availability.ts';
import { suggestionsQuery } from '../api/get-suggestions.ts';
import { AvailabilityRow } from './AvailabilityRow.tsx';

/** A page of suggestions and their availability, asked for in one bulk request per page. */
export function SuggestionList({ query, exactName, page, onPage, onBuy }: {
  query: string | undefined;
  exactName: string | undefined;
  page: number;
  onPage: (page: number) => void;
  onBuy: (name: string, years: number) => Promise<void>;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const suggestions = useQuery(suggestionsQuery(api, query, page));
  const names = (suggestions.data?.domains ?? []).filter((d) => d !== exactName);
  const availability = useQuery(bulkAvailabilityQuery(api, queryClient, names));

  if (query === undefined) return null;
  if (suggestions.isPending) return <Spinner size="sm" label="Finding suggestions" />;
  if (suggestions.isError) {
    const explained = explainError(suggestions.error);
    return <Notice tone="danger" title={explained.title}>{explained.description}</Notice>;
  }
  if (suggestions.data.domains.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No suggestions for these words.</p>;

  return (
    <section aria-labelledby="suggestions-heading" className="space-y-2">
      <h2 id="suggestions-heading" className="text-lg font-semibold">Suggestions</h2>
      {availability.isError ? (
        <Notice tone="danger" title={explainError(availability.error).title}>{explainError(availability.error).description}</Notice>
      ) : availability.isPending ? (
        <Spinner size="sm" label="Checking suggestions" />
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-700">
          {availability.data.map((a) => (
            <AvailabilityRow key={a.domain} availability={a} onBuy={onBuy} />
          ))}
        </ul>
      )}
      <nav aria-label="Suggestion pages" className="flex items-center gap-3 pt-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>Previous</Button>
        <span className="text-sm text-slate-600 dark:text-slate-400">Page {suggestions.data.page} of {suggestions.data.totalPages}</span>
        <Button variant="secondary" size="sm" disabled={suggestions.data.nextPage === null} onClick={() => onPage(page + 1)}>Next</Button>
      </nav>
    </section>
  );
}
