import { QueryClientContext } from '@tanstack/react-query';
import { useContext, useMemo } from 'react';
import { operations, type OperationId, type OperationOutput } from '#core/operations/index.ts';
import { apiCall } from './call.ts';
import type { CallArgs } from './client.ts';

export interface Api {
  call<K extends OperationId>(id: K, args?: CallArgs): Promise<OperationOutput<K>>;
}

/** What a request names, body, query and path parameters together: where a write's declaration reads its domain. */
function requestOf(args: CallArgs = {}): Record<string, unknown> {
  const body = args.body !== null && typeof args.body === 'object' ? (args.body as Record<string, unknown>) : {};
  return { ...args.params, ...args.query, ...body };
}

/**
 * The dashboard's API client for components: attaches the read credential (API key from settings, else
 * the SIWE token) and delegated-account headers, checks the answer with the operation's schema and
 * throws ApiError. Credentials are read per call, so the object is stable. A write (any method but GET) that
 * succeeds refreshes what its declaration says it changes before it resolves, and one that found the service away
 * reads it again too (src/lib/freshness/refresh.ts writeThenRefresh, loaded with the first write).
 */
export function useApi(): Api {
  const queryClient = useContext(QueryClientContext);
  return useMemo(
    () => ({
      call: async (id, args) => {
        if (!queryClient || operations[id].method === 'GET') return apiCall(id, args);
        const { writeThenRefresh } = await import('../freshness/refresh.ts');
        return writeThenRefresh(queryClient, id, requestOf(args), () => apiCall(id, args));
      },
    }),
    [queryClient],
  );
}
