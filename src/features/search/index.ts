// The search feature's public face: checkout reads availability from the same cache as a search result.
export { availabilityQuery } from './api/check-availability.ts';
export { parseTypedDomain } from './search-input.ts';
