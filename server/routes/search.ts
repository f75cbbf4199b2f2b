import type { Handlers } from '../http/context.ts';
import { checkName, checkNames } from '../search/availability.ts';
import { paginate, suggestionsFor } from '../search/suggestions.ts';

export const searchHandlers: Handlers = {
  checkAvailability: ({ input, services }) => checkName(services.db, input.domain),
  checkBulkAvailability: ({ input, services }) => checkNames(services.db, input.domains),
  getSuggestions: async ({ input }) => paginate(suggestionsFor(input.query), input.page, input.pageSize),
};
