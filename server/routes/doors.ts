import type { Handlers } from '../http/context.ts';
import { DYNDNS_PATH } from './dyndns.ts';

/** Addresses that mean "every address": a client cannot be told to reach one of these. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);

/** Where the standard doors open (contract: The standard doors), for the dashboard's tool configurations. */
export const doorHandlers: Handlers = {
  async getServiceDoors({ services }) {
    const port = services.dnsPort();
    const host = services.config.HOST.trim();
    return { dns: port === null ? null : { host: WILDCARD_HOSTS.has(host) ? null : host, port }, dynDns: { path: DYNDNS_PATH } };
  },
};
