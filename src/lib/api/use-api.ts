import { useMemo } from 'react';
import type { OperationId, OperationOutput } from '#core/operations/index.ts';
import { apiCall } from './call.ts';
import type { CallArgs } from './client.ts';

export interface Api {
  call<K extends OperationId>(id: K, args?: CallArgs): Promise<OperationOutput<K>>;
}

/**
 * The dashboard's API client for components: attaches the read credential (API key from settings, else
 * the SIWE token) and delegated-account headers, checks the answer with the operation's schema and
 * throws ApiError. Credentials are read per call, so the object is stable.
 */
export function useApi(): Api {
  return useMemo(() => ({ call: (id, args) => apiCall(id, args) }), []);
}
