import { READ, SETTING, operationTool, type Tool } from './tool-kit.ts';
import { applyDnsChanges, previewDnsChanges } from './plan-tools.ts';
import { quoteRegistration, registerDomain, renewDomain } from './spend-tools.ts';
import { getDomain, prepareSignature } from './read-tools.ts';

const ASK_NOTHING = 'Reading changes nothing: no need to ask the person first.';

/**
 * Every tool of the MCP server (the contract's list; the names are the interface). The ones that are one operation
 * are generated from its declaration, one line each; the rest hold the safety the server enforces: a change set is
 * previewed into a plan and only a plan is applied, spending needs a quote and an idempotency key, and what only the
 * person's wallet may sign goes through prepare_signature. No tool creates an API key.
 */
export const TOOLS: Tool[] = [
  operationTool('search_domains', 'checkBulkAvailability', { title: 'Search domains', annotations: READ, wrap: 'domains', ask: `Checks up to 50 names at once: whether each can be registered and its price. ${ASK_NOTHING}` }),
  operationTool('suggest_domains', 'getSuggestions', { title: 'Suggest domains', annotations: READ, ask: `Names close to a word or a name, to then check with search_domains. ${ASK_NOTHING}` }),
  getDomain,
  operationTool('list_dns_records', 'getDnsRecords', { title: 'List DNS records', annotations: READ, wrap: 'records', ask: `Every record of a zone, the managed ones (parking, forwarding, DNSSEC) marked in metadata. ${ASK_NOTHING}` }),
  operationTool('check_mail_auth', 'checkMailAuth', { title: 'Check mail authentication', annotations: READ, ask: `Whether mail sent as a domain passes SPF (one record, +all, at most 10 DNS lookups), DMARC and DKIM, and whether its MX, MTA-STS and TLS-RPT records work; each finding with the record that fixes it, to put into preview_dns_changes. ${ASK_NOTHING}` }),
  operationTool('scan_zone', 'scanZone', { title: 'Scan a zone at its old provider', annotations: READ, ask: `Reads the records a domain's old provider serves (a zone transfer from nameserver when it allows one, else a probe of the names people use), to pass to preview_dns_changes; the owner's key only. ${ASK_NOTHING}` }),
  operationTool('list_my_domains', 'getUserDomains', { title: 'List my domains', annotations: READ, wrap: 'domains', ask: `The domains of the wallet the API key belongs to. ${ASK_NOTHING}` }),
  operationTool('list_orders', 'getUserOrders', { title: 'List orders', annotations: READ, wrap: 'items', ask: `The key's wallet's order items, newest first. ${ASK_NOTHING}` }),
  operationTool('get_order', 'getOrder', { title: 'Get an order', annotations: READ, ask: `Follow an order made by register_domain or renew_domain until it SUCCEEDED or FAILED. ${ASK_NOTHING}` }),
  operationTool('get_balance', 'getBalance', { title: 'Get the credit balance', annotations: READ, ask: `The credit registrations and renewals are paid from, in US cents. ${ASK_NOTHING}` }),
  operationTool('get_zone_history', 'getZoneHistory', { title: 'Get a zone’s history', annotations: READ, ask: `Who changed what and when, each entry with how it was proved (a signature, an API key, MCP). ${ASK_NOTHING}` }),
  previewDnsChanges,
  applyDnsChanges,
  operationTool('set_parking', 'toggleDomainParking', { title: 'Park or unpark a domain', annotations: SETTING, ask: 'Acts at once (no plan). Ask the person first; with overrideExistingRecords true the apex A, AAAA and CAA records are deleted: say so.' }),
  operationTool('set_forwarding', 'setForwarding', { title: 'Forward a domain to a URL', annotations: SETTING, ask: 'Acts at once (no plan): the domain’s apex then answers with the forwarder and parking stops. Ask the person first, saying the target URL and status code.' }),
  operationTool('set_dnssec', 'toggleDnssec', { title: 'Turn DNSSEC on or off', annotations: SETTING, ask: 'Acts at once (no plan). Ask the person first: turning DNSSEC off while a DS record is published at the parent makes the domain fail to resolve. Another algorithm on a signed zone starts an algorithm rollover; dsAtParent (the new key tag) says the registrar holds the new DS: only when the person says so.' }),
  quoteRegistration,
  registerDomain,
  renewDomain,
  operationTool('set_auto_renew', 'setAutoRenew', { title: 'Switch auto-renew', annotations: SETTING, ask: 'Auto-renew spends the owner’s credit before expiry. Ask the person first and say for how many years it renews.' }),
  operationTool('list_api_keys', 'listApiKeys', { title: 'List API keys', annotations: READ, ask: `The wallet's API keys, by prefix (never a secret). ${ASK_NOTHING}` }),
  operationTool('revoke_api_key', 'revokeApiKey', {
    title: 'Revoke an API key',
    annotations: SETTING,
    ask: 'Cannot be undone: whatever uses the key stops working, this agent too when it is its own key. Ask the person first, naming the key by its prefix.',
  }),
  prepareSignature,
];
