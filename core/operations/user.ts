import { z } from 'zod';
import { success } from '../wire/common.ts';
import { safeText } from '../wire/text.ts';
import * as orders from '../wire/orders.ts';
import * as user from '../wire/user.ts';
import { op } from './define.ts';

export const userOperations = {
  getUserOrders: op({ id: 'getUserOrders', method: 'GET', path: '/user/orders', tag: 'user', summary: 'Order items of the caller, newest first', auth: 'siwe', output: orders.userOrders }),
  getUserDomains: op({ id: 'getUserDomains', method: 'GET', path: '/user/domains', tag: 'user', summary: 'Domains the caller owns', auth: 'siwe', output: user.userDomains }),
  getBalance: op({ id: 'getBalance', method: 'GET', path: '/balance', tag: 'balance', summary: 'Credit balance of the caller', auth: 'siwe', output: user.balance }),
  requestFaucet: op({ id: 'requestFaucet', method: 'POST', path: '/user/faucet', tag: 'balance', summary: 'Top up test credit', auth: 'siwe', input: user.faucetInput, output: user.faucetResult, errors: [403], changes: { account: ['balance'] } }),

  createApiKey: op({ id: 'createApiKey', method: 'POST', path: '/user/api-keys', tag: 'user', summary: 'Create an API key (shown once)', auth: 'siwe', input: user.createApiKeyInput, output: user.createdApiKey, changes: { account: ['api-keys'] } }),
  listApiKeys: op({ id: 'listApiKeys', method: 'GET', path: '/user/api-keys', tag: 'user', summary: 'The caller\u2019s API keys', auth: 'siwe', output: user.apiKeyList }),
  revokeApiKey: op({ id: 'revokeApiKey', method: 'DELETE', path: '/user/api-keys/{id}', tag: 'user', summary: 'Revoke an API key', auth: 'siwe', params: z.object({ id: safeText() }), output: success, errors: [404], changes: { account: ['api-keys'] } }),
};
