// What other features may use of auto-renew: the setting as the service holds it (the domain page's overview shows it).
export { autoRenewQuery } from './api/get-auto-renew.ts';
