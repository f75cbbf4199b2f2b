import { useMutation } from '@tanstack/react-query';
import type { ForwardingTrial } from '#core/wire/forwarding.ts';
import { useApi } from '@/lib/api/use-api.ts';

/**
 * GET /domain-config/forwarding/try (ours): the service asks its own forwarder with the domain's Host header and
 * answers the redirect. A browser can neither set Host nor read a redirect's Location, so it cannot ask directly.
 */
export function useTryForwarding(domain: string) {
  const api = useApi();
  return useMutation<ForwardingTrial, Error, string>({
    mutationFn: (path) => api.call('tryForwarding', { query: { normalizedDomainName: domain, path } }),
  });
}
