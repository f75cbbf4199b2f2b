import { useEffect } from 'react';
import { queryOptions, useQueries, useQueryClient } from '@tanstack/react-query';
import type { OperationId } from '#core/operations/index.ts';
import type { SigningDomain, TypesForMethod } from '#core/wire/eip712.ts';
import { apiCall } from '../api/call.ts';
import { config } from '../config.ts';
import { eip712Key } from '../query-keys.ts';
import { useSettings } from '../settings/settings-store.ts';

/** Signing metadata belongs to one service and does not change while a page is open: asked once per session. */
const forSession = { staleTime: Infinity, gcTime: Infinity } as const;

export function signingDomainQuery() {
  return queryOptions<SigningDomain>({
    queryKey: eip712Key(config.apiBaseUrl, 'domain'),
    queryFn: () => apiCall('getEip712Domain'),
    ...forSession,
  });
}

/** The accepted primary types of one operation and their structs, as the service answers them. */
export function typesForMethodQuery(method: OperationId) {
  return queryOptions<TypesForMethod>({
    queryKey: eip712Key(config.apiBaseUrl, 'types-for-method', method),
    queryFn: () => apiCall('getEip712TypesForMethod', { query: { method } }),
    ...forSession,
  });
}

/**
 * The types of the operations a page may sign, asked before the wallet can open (when the page opens, or once
 * `when` holds: a dialog shown, a change set started) so the wallet never waits on them, and read back for its
 * notices. With an API key nothing is signed, so nothing is asked (entries stay undefined).
 */
export function useSigningTypes<const M extends OperationId>(methods: readonly M[], when = true): Partial<Record<M, TypesForMethod>> {
  const { apiKey } = useSettings();
  const queryClient = useQueryClient();
  const enabled = !apiKey && when;
  useEffect(() => {
    if (enabled) void queryClient.prefetchQuery(signingDomainQuery());
  }, [enabled, queryClient]);
  return useQueries({
    queries: methods.map((method) => ({ ...typesForMethodQuery(method), enabled })),
    // Combined once per change of the answers, so a page can memoise on the result.
    combine: (results) => {
      const out: Partial<Record<M, TypesForMethod>> = {};
      methods.forEach((method, i) => {
        const data = results[i]?.data;
        if (data) out[method] = data;
      });
      return out;
    },
  });
}
