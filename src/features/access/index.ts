// What other features and the app use of access: the Domains page's "Shared with you", and the domain page's view of
// a grantee (the grant, and its banner). The Access tab itself is mounted lazily from AccessPanel.tsx.
export { SharedWithYou } from './components/SharedWithYou.tsx';
export { GrantBanner } from './components/GrantBanner.tsx';
export { useMyGrant } from './use-my-grant.ts';
// The zone's grants as the Access tab reads them (the refresh rule's test mounts it).
export { zoneGrantsQuery } from './api/zone-access.ts';
