import type { QueryClient } from '@tanstack/react-query';

/**
 * The dashboard's one query cache, loaded when the first part that reads the service is (a page, a search's
 * results, the wallet island), not with the first page: the home page reads nothing until a search, and the cache
 * (TanStack Query's core, about 15 kB gzip) would otherwise be a sixth of the first page's JS (issue 37).
 */
let client: QueryClient | undefined;
let loading: Promise<QueryClient> | undefined;
const listeners = new Set<() => void>();

/** Loads and makes the cache once; the providers (src/app/providers.tsx) hand it to the tree as soon as it exists. */
function loadQueryClient(): Promise<QueryClient> {
  loading ??= import('./query-client.ts').then(({ createQueryClient }) => {
    client = createQueryClient();
    // The providers re-render with the cache now, before any part waiting for it (withQueryClient) renders.
    for (const listener of listeners) listener();
    return client;
  });
  return loading;
}

/** The cache once made, for useSyncExternalStore. */
export const queryClientStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: (): QueryClient | undefined => client,
};

/**
 * A lazy part's loader that also waits for the query cache: every part that reads or writes through TanStack Query
 * is loaded through it (`lazy(withQueryClient(() => import(…)))`), so it never renders before the cache is there.
 */
export function withQueryClient<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadQueryClient()]).then(([module]) => module);
}
