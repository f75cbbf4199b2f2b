import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '@/lib/api/call.ts';
import { config } from '@/lib/config.ts';
import { siweKey } from '@/lib/query-keys.ts';

/** GET /siwe/allowed-chains: which chains a sign-in message may name. */
export const allowedChainsQuery = queryOptions({
  queryKey: siweKey(config.apiBaseUrl, 'allowed-chains'),
  queryFn: () => apiCall('getSiweAllowedChains'),
  staleTime: 5 * 60_000,
});
