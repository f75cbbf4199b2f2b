import type { Config } from '../config.ts';

const LOOPBACK = /^(127\.|::1$|localhost$|::ffff:127\.)/;

/** RRL is on by default only where the server can be reached from elsewhere: 20 a second unless HOST is loopback. */
export function rrlPerSecond(config: Pick<Config, 'HOST' | 'DNS_RRL_PER_SECOND'>): number {
  return config.DNS_RRL_PER_SECOND ?? (LOOPBACK.test(config.HOST) ? 0 : 20);
}

/** The DNS server's settings for serving secondaries and resisting abuse, from the service's configuration. */
export function dnsServingOptions(config: Config) {
  return { rrlPerSecond: rrlPerSecond(config) };
}
