import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '@/lib/api/call.ts';
import { config } from '@/lib/config.ts';

/** GET /doors (ours): where DNS UPDATE and DynDNS2 open on this service, for the tools' configurations. */
export function serviceDoorsQuery() {
  return queryOptions({
    queryKey: ['service-doors', config.apiBaseUrl],
    queryFn: () => apiCall('getServiceDoors'),
    // The service's ports do not move while it runs.
    staleTime: Infinity,
    retry: false,
  });
}
