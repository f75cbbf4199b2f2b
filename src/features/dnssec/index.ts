// What other features may use of DNSSEC: whether the zone is signed (the domain page's overview shows it).
export { dnssecQuery } from './api/get-dnssec.ts';
