import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { z } from 'zod';
import { chainConfigShape } from './chain/config.ts';
import { parseCidr } from './net/addresses.ts';

const list = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean));

/** An address or a CIDR (`10.0.0.0/8`, `2001:db8::/32`), as TRUSTED_PROXIES and DNS_AXFR_ALLOW take them. */
const addressOrCidr = z.string().refine((s) => parseCidr(s) !== null, 'an address or a CIDR such as 10.0.0.0/8 or 2001:db8::/32');

/** Every setting of the local service, from the environment, with defaults for local use. See the README. */
const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('.data'),
  /** A PostgreSQL URL; when set it replaces the embedded PGlite database in DATA_DIR. */
  DATABASE_URL: z.string().optional(),
  ORDER_PROCESSING_MS: z.coerce.number().int().min(0).default(3000),
  /** The host the SIWE message must name: the dashboard's own host (vite.config.ts serves 127.0.0.1:5173). */
  SIWE_DOMAIN: z.string().default('127.0.0.1:5173'),
  ALLOWED_CHAINS: list('11155111,46630,31337').pipe(z.array(z.string().regex(/^\d+$/, 'chain ids are numbers').transform(Number)).min(1)),
  CORS_ORIGINS: list('http://localhost:*,http://127.0.0.1:*'),
  FAUCET_COOLDOWN_S: z.coerce.number().int().min(0).default(0),
  FAUCET_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Proxies (addresses and CIDRs) whose X-Forwarded-For names the client; from anyone else it is ignored. */
  TRUSTED_PROXIES: list('').pipe(z.array(addressOrCidr)),
  /** How long a contract account's signature check (ERC-1271, ERC-6492) may take before the request is refused (401). */
  CONTRACT_CALL_TIMEOUT_MS: z.coerce.number().int().min(1).default(3000),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** Records one zone may hold (contract, Limits: 100,000). At least one batch (1,000), so a batch into an empty zone always fits. */
  ZONE_RECORD_LIMIT: z.coerce.number().int().min(1000).default(100_000),
  SIWE_TOKEN_TTL_S: z.coerce.number().int().min(1).default(43200),
  /** The dashboard the MCP server's prepare_signature links to (its /agent-sign page). */
  DASHBOARD_URL: z.string().url().default('http://127.0.0.1:5173'),
  /** Host names (port aside) the MCP endpoint answers besides loopback's and HOST: a DNS-rebinding guard. */
  MCP_ALLOWED_HOSTS: list(''),
  HEADER_PREFIX: z.string().regex(/^[a-z0-9-]+$/).default('namefi'),
  /** The EIP-712 domain name this service signs under: its own, so that no signature made for it verifies on production. */
  EIP712_DOMAIN_NAME: z.string().trim().min(1).max(100).default('Namefi Local'),
  LOG_REQUESTS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** The port of the authoritative DNS server (UDP and TCP on HOST); unset = no DNS server (DoH stays on HTTP). 0 = any free port. */
  DNS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Clients that may transfer whole zones (AXFR over TCP): loopback only by default. */
  DNS_AXFR_ALLOW: list('127.0.0.1,::1').pipe(z.array(addressOrCidr)),
  /** The name servers the zones' SOA and apex NS name. */
  DNS_NAMESERVERS: list('ns1.namefi.test,ns2.namefi.test'),
  /**
   * The zones' SOA timers (seconds), within zonemaster's recommendations by default: refresh ≥ 14400, retry ≥ 3600
   * and below refresh, expire ≥ 7 × refresh, negative-caching TTL (the minimum) 300 to 86400. Secondaries hear of a
   * change by NOTIFY at once; refresh and retry only matter when a NOTIFY is lost.
   */
  DNS_SOA_REFRESH: z.coerce.number().int().min(1).max(2_147_483_647).default(14400),
  DNS_SOA_RETRY: z.coerce.number().int().min(1).max(2_147_483_647).default(3600),
  DNS_SOA_EXPIRE: z.coerce.number().int().min(1).max(2_147_483_647).default(1_209_600),
  DNS_SOA_MINIMUM: z.coerce.number().int().min(0).max(86400).default(300),
  /** DNS cookies (RFC 7873, RFC 9018): a server cookie in every answer to a query with a client cookie; false = ignored. */
  DNS_COOKIES: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** The URL forwarder's port (HTTP, on HOST); unset = no forwarder. 0 = any free port. */
  FORWARD_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The addresses a forwarded domain's apex answers (managed A/AAAA records): where the forwarder is reached. */
  FORWARD_ADDRESSES: list('127.0.0.1').pipe(z.array(z.string().refine((s) => isIP(s) !== 0, 'an IPv4 or IPv6 address')).min(1)),
  /** UDP answers per second per client (IPv4 /24, IPv6 /56) and answer; unset = 20 when HOST is not loopback, else 0 (off). */
  DNS_RRL_PER_SECOND: z.coerce.number().int().min(0).optional(),
  /**
   * Memory (MiB) for the DNS server's caches, in the 2-core machine's measure: half for the packet cache (a table in
   * shared memory every UDP thread reads, docs/service/dns.md), half for the zones' snapshots on the main thread (the
   * least recently asked go first).
   */
  DNS_CACHE_MB: z.coerce.number().int().min(4).max(65536).default(96),
  /**
   * Threads that answer UDP from the packet cache beside the main thread (docs/service/dns.md); 0 = the main thread
   * alone. Unset: one per core but the main thread's, at least one (two cores: one thread, which answered 1.7× what
   * two did there: two threads and the main thread fight for the same cores).
   */
  DNS_UDP_THREADS: z.coerce.number().int().min(0).max(16).default(Math.max(1, Math.min(16, availableParallelism() - 1))),
  /**
   * Recursive resolvers (`host:port`) the service asks about names outside its own zones (the mail check's SPF
   * includes and MX targets); unset = it resolves only its own zones. The only servers it ever asks: trusted as configured.
   */
  DNS_RESOLVER: list('').pipe(z.array(z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[0-9.]+):[0-9]{1,5}$/, 'host:port with an IP address, an IPv6 address in brackets'))),
  /** Whether scanZone may ask a name server on a loopback, private or link-local address (tests, a lab): never unless true. */
  SCAN_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** How often the ALIAS refresher looks for targets whose cached addresses are due (each is kept for its TTL, clamped). */
  ALIAS_REFRESH_MS: z.coerce.number().int().min(50).default(5_000),
  /** The least time (seconds) an ALIAS target's addresses are kept before they are resolved again (at most 1 h); lower only in tests. */
  ALIAS_MIN_CACHE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Secondaries (`host:port`) sent a NOTIFY whenever a zone's serial changes. */
  DNS_ALSO_NOTIFY: list('').pipe(z.array(z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[^:\s]+):[0-9]{1,5}$/, 'host:port, an IPv6 address in brackets'))),
  /** TSIG keys `name:hmac-sha256:<base64 secret>`; when set, transfers must be signed by one (RFC 8945). */
  DNS_TSIG_KEYS: list('').pipe(z.array(z.string().regex(/^[a-zA-Z0-9._-]+:hmac-sha256:[A-Za-z0-9+/]+=*$/, 'name:hmac-sha256:<base64 secret>'))),
  /**
   * A secret (at least 32 characters) the service seals the secrets it must read back with: the TSIG forms of API keys
   * (AES-256-GCM). Unset: they are stored as they are, like the DNSSEC private keys. Changing it voids existing TSIG forms.
   */
  SECRETS_KEY: z.string().min(32, 'at least 32 characters').optional(),
  /** Days of zone changes kept for IXFR (beside at least 1,000 serials per zone). */
  DNS_JOURNAL_DAYS: z.coerce.number().min(0).default(7),
  /** The catalog zone (RFC 9432) listing every zone the service holds. */
  DNS_CATALOG_ZONE: z.string().regex(/^([a-z0-9-]+\.)+[a-z0-9-]+$/).default('catalog.namefi.test'),
  /** Days before expiry an auto-renewing domain is renewed: its `nextAttemptAt` is the expiry less this many days. */
  AUTO_RENEW_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Days after expiry in which the domain still answers and its owner still edits (grace). */
  GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  /** Days after grace in which only the "expired" holding page answers and a renewal adds RESTORE_FEE (redemption); then the name is released. */
  REDEMPTION_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  /** The one-off fee (US dollars) a renewal in redemption adds. */
  RESTORE_FEE: z.coerce.number().min(0).max(100_000).default(80),
  /** The test clock (POST/GET /v-next/dev/clock): never on unless set to true. */
  DEV_CONTROLS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Query analytics (contract: Analytics): the name server counts its answers per zone and minute; false = counts nothing. */
  ANALYTICS_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Days of query counts kept. */
  ANALYTICS_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** How often each instance adds what it counted to the database (and on stop). */
  ANALYTICS_FLUSH_MS: z.coerce.number().int().min(100).default(10_000),
  ...chainConfigShape,
});
/** The configuration as read, with `dnsCacheMb` (DNS_CACHE_MB) named as the DNS caches read it. */
const withDerived = configSchema.transform(({ DNS_CACHE_MB, ...config }) => ({ ...config, dnsCacheMb: DNS_CACHE_MB }));
export type Config = z.infer<typeof withDerived>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = withDerived.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid service configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
