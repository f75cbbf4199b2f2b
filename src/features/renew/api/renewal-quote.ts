import { queryOptions } from '@tanstack/react-query';
import type { RenewalQuote } from '#core/wire/orders.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { renewalQuoteKey } from '@/lib/query-keys.ts';

/** GET /orders/renew-domain/quote (ours, public): the holder, the expiry, the yearly price and how far a renewal may go. */
export function renewalQuoteQuery(api: Api, domain: string) {
  return queryOptions<RenewalQuote>({
    queryKey: renewalQuoteKey(domain),
    queryFn: () => api.call('getRenewalQuote', { query: { normalizedDomainName: domain } }),
    enabled: domain !== '',
    // A service without renewals (production) answers 404: the renewal controls stay hidden, and asking again helps nothing.
    retry: false,
  });
}
