// What others may use of the overview: what DNS answers for the apex now, as the overview asks it (the refresh rule's
// test mounts it). The overview itself (DomainOverview) is mounted lazily by src/app.
export { apexDnsQuery } from './api/apex-dns.ts';
