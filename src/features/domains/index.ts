// What other features may use of the domains feature: the signed-in wallet's domains (the domain page's overview
// reads its owner and expiry from the same cached answer as the list).
export { userDomainsQueryOptions } from './api/get-user-domains.ts';
