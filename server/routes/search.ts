import type { Handlers } from '../http/context.ts';
import type { Services } from '../services.ts';
import { checkName, checkNames, type ExpiryPricing } from '../search/availability.ts';
import { paginate, suggestionsFor } from '../search/suggestions.ts';
import { expiryPolicy } from '../zones/expiry.ts';

/** A name in redemption is priced with its restore fee, by the service's clock. */
const pricing = (services: Services): ExpiryPricing => ({ now: services.now(), policy: expiryPolicy(services.config), restoreFee: services.config.RESTORE_FEE });

export const searchHandlers: Handlers = {
  checkAvailability: ({ input, services }) => checkName(services.db, input.domain, pricing(services)),
  checkBulkAvailability: ({ input, services }) => checkNames(services.db, input.domains, pricing(services)),
  getSuggestions: async ({ input }) => paginate(suggestionsFor(input.query), input.page, input.pageSize),
};
