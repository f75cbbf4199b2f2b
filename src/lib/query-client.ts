import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/api-error.ts';

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
      },
      mutations: { retry: false },
    },
  });
}
