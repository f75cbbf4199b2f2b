import type { Config } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import { managedSettings } from '../dns/managed-settings.ts';
import { parseTsigKeys } from './tsig.ts';
import { nameServerSettings, type NameServerSettings, type SoaTimers } from './zone-snapshot.ts';

const LOOPBACK = /^(127\.|::1$|localhost$|::ffff:127\.)/;

/** RRL is on by default only where the server can be reached from elsewhere: 20 a second unless HOST is loopback. */
export function rrlPerSecond(config: Pick<Config, 'HOST' | 'DNS_RRL_PER_SECOND'>): number {
  return config.DNS_RRL_PER_SECOND ?? (LOOPBACK.test(config.HOST) ? 0 : 20);
}

/** The zones' SOA timers from the configuration (the SOA's own TTL stays an hour). */
function soaTimers(config: Pick<Config, 'DNS_SOA_REFRESH' | 'DNS_SOA_RETRY' | 'DNS_SOA_EXPIRE' | 'DNS_SOA_MINIMUM'>): SoaTimers {
  return { refresh: config.DNS_SOA_REFRESH, retry: config.DNS_SOA_RETRY, expire: config.DNS_SOA_EXPIRE, minimum: config.DNS_SOA_MINIMUM, ttl: 3600 };
}

/** The DNS server's settings for serving secondaries and resisting abuse, from the service's configuration. */
export function dnsServingOptions(config: Config, db: Queryable) {
  return { rrlPerSecond: rrlPerSecond(config), udpThreads: config.DNS_UDP_THREADS, cookies: config.DNS_COOKIES, soa: soaTimers(config), secondaries: { keys: parseTsigKeys(config.DNS_TSIG_KEYS), db, journalDays: config.DNS_JOURNAL_DAYS, managed: managedSettings(config) } };
}

/**
 * The bytes the main thread's zone snapshots and forms may hold: a quarter of DNS_CACHE_MB. The shared answer table
 * has the rest (packet-cache.ts packetCacheBytes): the zones compiled for the UDP threads live there and answer most
 * questions, so the main thread builds a zone rarely once it was asked.
 */
/** The name server's settings as the configuration gives them: the name server's (service.ts) and the pipeline's compiling (compiled-form.ts). */
export function configuredSettings(config: Pick<Config, 'DNS_NAMESERVERS' | 'FORWARD_ADDRESSES' | 'DNS_SOA_REFRESH' | 'DNS_SOA_RETRY' | 'DNS_SOA_EXPIRE' | 'DNS_SOA_MINIMUM'>): NameServerSettings {
  return nameServerSettings(config.DNS_NAMESERVERS, managedSettings(config), soaTimers(config));
}

export const snapshotCacheBytes = (config: Pick<Config, 'dnsCacheMb'>) => Math.floor((config.dnsCacheMb * 1024 * 1024) / 4);
