import { z } from 'zod';
import { success, zoneName } from './wire/common.ts';
import { safeText } from './wire/text.ts';
import * as dns from './wire/dns.ts';
import * as parking from './wire/parking.ts';
import * as dnssec from './wire/dnssec.ts';
import * as forwarding from './wire/forwarding.ts';
import * as search from './wire/search.ts';
import * as orders from './wire/orders.ts';
import * as user from './wire/user.ts';
import * as siwe from './wire/siwe.ts';
import * as eip712 from './wire/eip712.ts';
import * as x402 from './wire/x402.ts';
import * as history from './wire/history.ts';

/**
 * Every operation of the contract, declared once: the service routes, authenticates and documents
 * from this table, and the dashboard's endpoint modules take their path, method and schemas from it.
 *
 * auth: none = public; optional = anonymous or any credential; siwe = SIWE token, API key or EIP-712;
 * write = EIP-712 envelope or API key (SIWE alone does not authorise a write).
 */
export type AuthMode = 'none' | 'optional' | 'siwe' | 'write';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Operation {
  id: string;
  method: HttpMethod;
  /** OpenAPI-style path below /v-next, e.g. /orders/{orderId}. */
  path: string;
  tag: string;
  summary: string;
  auth: AuthMode;
  /** Query parameters (GET) or JSON body (others). */
  input?: z.ZodType;
  params?: z.ZodObject;
  output: z.ZodType;
}

const op = <T extends Operation>(o: T) => o;

const recordsQuery = z.object({ zoneName });

export const operations = {
  getEip712Domain: op({ id: 'getEip712Domain', method: 'GET', path: '/eip712/domain', tag: 'eip712', summary: 'The EIP-712 signing domain', auth: 'none', input: z.object({ chain: z.string().optional() }), output: eip712.signingDomain }),
  getAllEip712Types: op({ id: 'getAllEip712Types', method: 'GET', path: '/eip712/types', tag: 'eip712', summary: 'The full EIP-712 type registry', auth: 'none', output: eip712.typeRegistry }),
  getEip712TypesForMethod: op({ id: 'getEip712TypesForMethod', method: 'GET', path: '/eip712/types-for-method', tag: 'eip712', summary: 'Accepted primary types and their structs for one operation', auth: 'none', input: z.object({ method: z.string().min(1, 'Name an operation id') }), output: eip712.typesForMethod }),

  getSiweAllowedChains: op({ id: 'getSiweAllowedChains', method: 'GET', path: '/siwe/allowed-chains', tag: 'oauth', summary: 'Chain ids a SIWE message may name', auth: 'none', output: siwe.allowedChains }),
  getSiweNonce: op({ id: 'getSiweNonce', method: 'GET', path: '/siwe/nonce', tag: 'oauth', summary: 'A single-use SIWE nonce (300 s)', auth: 'none', input: siwe.nonceQuery, output: siwe.nonceResult }),
  prepareSiweMessage: op({ id: 'prepareSiweMessage', method: 'GET', path: '/siwe/message', tag: 'oauth', summary: 'The EIP-4361 message to sign', auth: 'none', input: siwe.messageQuery, output: siwe.messageResult }),
  verifySiwe: op({ id: 'verifySiwe', method: 'POST', path: '/siwe/verify', tag: 'oauth', summary: 'Exchange a signed SIWE message for a 12 h session token', auth: 'none', input: siwe.verifyInput, output: siwe.verifyResult }),

  getDnsRecords: op({ id: 'getDnsRecords', method: 'GET', path: '/dns/records', tag: 'dns', summary: 'Every record of a zone, stored and managed', auth: 'none', input: recordsQuery, output: z.array(dns.dnsRecord) }),
  createDnsRecord: op({ id: 'createDnsRecord', method: 'POST', path: '/dns/records', tag: 'dns', summary: 'Create one record', auth: 'write', input: dns.createDnsRecordInput, output: dns.dnsRecord }),
  updateDnsRecord: op({ id: 'updateDnsRecord', method: 'PUT', path: '/dns/record', tag: 'dns', summary: 'Update one record by id', auth: 'write', input: dns.updateDnsRecordInput, output: dns.dnsRecord }),
  deleteDnsRecord: op({ id: 'deleteDnsRecord', method: 'DELETE', path: '/dns/record', tag: 'dns', summary: 'Delete one record by id', auth: 'write', input: dns.deleteDnsRecordInput, output: success }),
  batchCreateDnsRecords: op({ id: 'batchCreateDnsRecords', method: 'POST', path: '/dns/records/batch', tag: 'dns', summary: 'Create records in one zone, all or nothing', auth: 'write', input: dns.batchCreateInput, output: z.array(dns.dnsRecord) }),
  batchUpdateDnsRecords: op({ id: 'batchUpdateDnsRecords', method: 'PUT', path: '/dns/records/batch', tag: 'dns', summary: 'Update records in one zone, all or nothing', auth: 'write', input: dns.batchUpdateInput, output: z.array(dns.dnsRecord) }),
  batchDeleteDnsRecords: op({ id: 'batchDeleteDnsRecords', method: 'DELETE', path: '/dns/records/batch', tag: 'dns', summary: 'Delete records in one zone, all or nothing', auth: 'write', input: dns.batchDeleteInput, output: success }),

  parkDomain: op({ id: 'parkDomain', method: 'POST', path: '/dns/park', tag: 'domain-config', summary: 'Park a domain', auth: 'write', input: parking.parkDomainInput, output: success }),
  toggleDomainParking: op({ id: 'toggleDomainParking', method: 'PUT', path: '/dns/park', tag: 'domain-config', summary: 'Park or unpark a domain', auth: 'write', input: parking.toggleParkingInput, output: success }),
  getDnssec: op({ id: 'getDnssec', method: 'GET', path: '/dns/dnssec', tag: 'domain-config', summary: 'Whether a zone is signed (DNSSEC), and its DS record', auth: 'none', input: dnssec.dnssecQuery, output: dnssec.dnssecState }),
  toggleDnssec: op({ id: 'toggleDnssec', method: 'PUT', path: '/dns/dnssec', tag: 'domain-config', summary: 'Sign a zone (DNSSEC) or stop signing it', auth: 'write', input: dnssec.toggleDnssecInput, output: dnssec.dnssecState }),
  isDomainParked: op({ id: 'isDomainParked', method: 'GET', path: '/dns/parked', tag: 'domain-config', summary: 'Whether a domain is parked', auth: 'none', input: parking.parkedQuery, output: parking.parkedStatus }),
  getZoneHistory: op({ id: 'getZoneHistory', method: 'GET', path: '/dns/history', tag: 'dns', summary: 'A zone\u2019s changes, newest first, a page at a time (the owner only)', auth: 'siwe', input: history.historyQuery, output: history.historyPage }),
  exportZoneHistory: op({ id: 'exportZoneHistory', method: 'GET', path: '/dns/history/export', tag: 'dns', summary: 'Every change of a zone as NDJSON, oldest first (the owner only)', auth: 'siwe', input: history.historyExportQuery, output: history.historyEntry }),
  getForwarding: op({ id: 'getForwarding', method: 'GET', path: '/domain-config/forwarding', tag: 'domain-config', summary: 'A domain\u2019s URL forwarding (ours)', auth: 'none', input: forwarding.forwardingQuery, output: forwarding.forwarding }),
  setForwarding: op({ id: 'setForwarding', method: 'PUT', path: '/domain-config/forwarding', tag: 'domain-config', summary: 'Forward a domain to a URL, or stop (ours); turns parking off', auth: 'write', input: forwarding.setForwardingInput, output: forwarding.forwarding }),
  tryForwarding: op({ id: 'tryForwarding', method: 'GET', path: '/domain-config/forwarding/try', tag: 'domain-config', summary: 'Ask the service\u2019s forwarder for a path of the domain and answer the redirect it gave (ours)', auth: 'none', input: forwarding.tryForwardingQuery, output: forwarding.forwardingTrial }),

  checkAvailability: op({ id: 'checkAvailability', method: 'GET', path: '/search/availability', tag: 'search', summary: 'Availability and price of one name', auth: 'optional', input: search.availabilityQuery, output: search.availability }),
  checkBulkAvailability: op({ id: 'checkBulkAvailability', method: 'GET', path: '/search/bulk-availability', tag: 'search', summary: 'Availability of 1–50 names', auth: 'optional', input: search.bulkAvailabilityQuery, output: search.bulkAvailability }),
  getSuggestions: op({ id: 'getSuggestions', method: 'GET', path: '/search/suggestions', tag: 'search', summary: 'Name suggestions for a query', auth: 'none', input: search.suggestionsQuery, output: search.suggestions }),

  registerDomain: op({ id: 'registerDomain', method: 'POST', path: '/orders/register-domain', tag: 'orders', summary: 'Order a registration', auth: 'write', input: orders.registerDomainInput, output: orders.createdOrder }),
  registerWithRecords: op({ id: 'registerWithRecords', method: 'POST', path: '/orders/register-domain/records', tag: 'orders', summary: 'Order a registration with initial records', auth: 'write', input: orders.registerWithRecordsInput, output: orders.createdOrder }),
  registerDomainX402: op({ id: 'registerDomainX402', method: 'GET', path: '/x402/domain/{normalizedDomainName}', tag: 'x402', summary: 'Buy a name with a USD stablecoin payment (x402 v2, scheme exact): 402 with PAYMENT-REQUIRED, then a PAYMENT-SIGNATURE header', auth: 'optional', input: x402.registerDomainX402Query, params: x402.x402PurchaseParams, output: x402.x402Purchase }),
  getX402Purchase: op({ id: 'getX402Purchase', method: 'GET', path: '/x402/purchase/{purchaseId}', tag: 'x402', summary: 'Follow an x402 purchase: its order and any refund', auth: 'none', params: z.object({ purchaseId: safeText() }), output: x402.x402PurchaseStatus }),
  getOrder: op({ id: 'getOrder', method: 'GET', path: '/orders/{orderId}', tag: 'orders', summary: 'One order with its items and payments', auth: 'siwe', params: z.object({ orderId: safeText() }), output: orders.orderDetails }),

  getUserOrders: op({ id: 'getUserOrders', method: 'GET', path: '/user/orders', tag: 'user', summary: 'Order items of the caller, newest first', auth: 'siwe', output: orders.userOrders }),
  getUserDomains: op({ id: 'getUserDomains', method: 'GET', path: '/user/domains', tag: 'user', summary: 'Domains the caller owns', auth: 'siwe', output: user.userDomains }),
  getBalance: op({ id: 'getBalance', method: 'GET', path: '/balance', tag: 'balance', summary: 'Credit balance of the caller', auth: 'siwe', output: user.balance }),
  requestFaucet: op({ id: 'requestFaucet', method: 'POST', path: '/user/faucet', tag: 'balance', summary: 'Top up test credit', auth: 'siwe', input: user.faucetInput, output: user.faucetResult }),

  createApiKey: op({ id: 'createApiKey', method: 'POST', path: '/user/api-keys', tag: 'user', summary: 'Create an API key (shown once)', auth: 'siwe', input: user.createApiKeyInput, output: user.createdApiKey }),
  listApiKeys: op({ id: 'listApiKeys', method: 'GET', path: '/user/api-keys', tag: 'user', summary: 'The caller\u2019s API keys', auth: 'siwe', output: user.apiKeyList }),
  revokeApiKey: op({ id: 'revokeApiKey', method: 'DELETE', path: '/user/api-keys/{id}', tag: 'user', summary: 'Revoke an API key', auth: 'siwe', params: z.object({ id: safeText() }), output: success }),
} as const;

export type OperationId = keyof typeof operations;
export type OperationOutput<K extends OperationId> = z.infer<(typeof operations)[K]['output']>;

/** Fills {param} placeholders of an operation path. */
export function operationPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
}
