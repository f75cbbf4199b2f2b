import * as search from '../wire/search.ts';
import { op } from './define.ts';

export const searchOperations = {
  checkAvailability: op({ id: 'checkAvailability', method: 'GET', path: '/search/availability', tag: 'search', summary: 'Availability and price of one name', auth: 'optional', input: search.availabilityQuery, output: search.availability }),
  checkBulkAvailability: op({ id: 'checkBulkAvailability', method: 'GET', path: '/search/bulk-availability', tag: 'search', summary: 'Availability of 1–50 names', auth: 'optional', input: search.bulkAvailabilityQuery, output: search.bulkAvailability }),
  getSuggestions: op({ id: 'getSuggestions', method: 'GET', path: '/search/suggestions', tag: 'search', summary: 'Name suggestions for a query', auth: 'none', input: search.suggestionsQuery, output: search.suggestions }),
};
