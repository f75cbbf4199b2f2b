// What other features may use of settings: the wallet's API keys (the domain page's Access tab lists those that reach it).
export { apiKeysQuery } from './api/list-api-keys.ts';
