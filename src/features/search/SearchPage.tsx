import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { withQueryClient } from '@/lib/query-client-loader.ts';
import { Card, PageHeader, Spinner, TextField, useHydrated } from '@/ui/index.ts';
import { exactTarget, suggestionsQueryText, useDebouncedValue } from './search-input.ts';
import { useBuy } from './use-buy.ts';

// The results (the API client, its zod schemas, react-query's observers) load with the first search, not the first page.
// Typing starts the download, so it overlaps the debounce.
const loadExact = () => import('./components/ExactResult.tsx');
const loadSuggestions = () => import('./components/SuggestionList.tsx');
const ExactResult = lazy(withQueryClient(() => loadExact().then((m) => ({ default: m.ExactResult }))));
const SuggestionList = lazy(withQueryClient(() => loadSuggestions().then((m) => ({ default: m.SuggestionList }))));

/** Find a name: exact availability as typed, suggestions around it. Works signed out. */
export default function SearchPage() {
  const [params, setParams] = useSearchParams();
  const [input, setInput] = useState(() => params.get('q') ?? '');
  const [page, setPage] = useState(1);
  const settled = useDebouncedValue(input);
  const buy = useBuy();
  // The build pre-renders this page; until React has taken it over, what is typed would be lost.
  const live = useHydrated();

  // The settled text lives in the URL, so a sign-in detour, reload or back button returns to the same search.
  useEffect(() => {
    const current = params.get('q') ?? '';
    if (current === settled) return;
    const next = new URLSearchParams(params);
    if (settled) next.set('q', settled);
    else next.delete('q');
    setParams(next, { replace: true });
    setPage(1);
  }, [settled, params, setParams]);

  const target = exactTarget(settled);
  const query = suggestionsQueryText(settled);

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Find a domain" description="Type a name to see whether it is free and what it costs. No wallet needed to look." />
      <form role="search" onSubmit={(e) => e.preventDefault()} className="mb-6">
        <TextField
          label="Domain name"
          type="search"
          autoComplete="off"
          spellCheck={false}
          placeholder="example.com"
          hint="A name and its ending, such as example.com, or a few words for ideas"
          value={input}
          readOnly={!live}
          onChange={(e) => {
            void loadExact();
            void loadSuggestions();
            setInput(e.target.value);
          }}
          autoFocus
        />
      </form>
      {settled.trim() !== '' ? (
        <Suspense fallback={<Spinner label="Loading results" />}>
          <div className="space-y-6">
            <Card>
              <ExactResult target={target} onBuy={buy} />
            </Card>
            <SuggestionList
              query={query}
              exactName={target.kind === 'name' ? target.name : undefined}
              page={page}
              onPage={setPage}
              onBuy={buy}
            />
          </div>
        </Suspense>
      ) : null}
    </div>
  );
}
