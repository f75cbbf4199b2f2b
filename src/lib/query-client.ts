import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error.ts';
import { recoveryInterval } from './query-recovery.ts';

/** Server state for the whole dashboard. Client errors (4xx) are answers, not glitches: no retry. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          return failureCount < 2;
        },
        // Backoff between the tries above (1 s, 2 s); after them a query that met service trouble keeps
        // asking on its own, more slowly each round, so the page recovers when the service returns.
        retryDelay: (attempt) => Math.min(8_000, 1_000 * 2 ** attempt),
        refetchInterval: (query) => recoveryInterval(query.state),
      },
      mutations: { retry: false },
    },
  });
}
